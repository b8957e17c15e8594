// judgekb: search as you type, and copy a citation. Pages work without this script.
(function () {
  "use strict";
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }

  var q = document.getElementById("q"), edition = document.getElementById("edition"), list = document.getElementById("results");
  if (q && list) {
    var timer = null, last = "";
    function render(hits) {
      list.textContent = "";
      var empty = document.getElementById("empty"); if (empty) empty.remove();
      hits.forEach(function (hit) {
        var li = el("li", "hit"), a = el("a", "citation", hit.citation);
        a.href = "/c/" + hit.id; li.appendChild(a);
        if (hit.kind === "qa") li.appendChild(el("p", "question", "Q: " + hit.heading));
        if (hit.unofficial) li.appendChild(el("p", "unofficial", "Unofficial text (it answers what the official clauses here do not): check it against the official documents before citing."));
        li.appendChild(el("p", "snippet", hit.snippet));
        (hit.folded || []).forEach(function (f) {
          var p = el("p", "folded", (f.relation === "superseded" ? "superseded by this" : "restated by") + ": "), fa = el("a", "", f.citation);
          fa.href = "/c/" + f.id; p.appendChild(fa); li.appendChild(p);
        });
        list.appendChild(li);
      });
      if (!hits.length && q.value.trim()) { var p = el("p", "", "No results."); p.id = "empty"; list.after(p); }
    }
    function lookup() {
      var value = q.value.trim(), key = value + "|" + edition.value;
      if (key === last) return; last = key;
      if (!value) { render([]); return; }
      var url = "/api/search?limit=10&q=" + encodeURIComponent(value) + (edition.value !== "all" ? "&edition=" + edition.value : "");
      fetch(url).then(function (r) {
        var notes = document.getElementById("notes"), said = r.headers.get("X-Judgekb-Notes");
        if (notes && key === last) {
          notes.textContent = "";
          if (said) said.split("; ").forEach(function (n) { notes.appendChild(el("p", "note", n)); });
        }
        return r.ok ? r.json() : [];
      }).then(function (hits) {
        if (key === last) render(hits);
      }).catch(function () {});
      history.replaceState(null, "", "/?q=" + encodeURIComponent(value) + (edition.value !== "all" ? "&edition=" + edition.value : ""));
    }
    q.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(lookup, 150); });
    edition.addEventListener("change", lookup);
  }

  var copy = document.getElementById("copy");
  if (copy) {
    copy.addEventListener("click", function () {
      var text = copy.getAttribute("data-copy"), status = document.getElementById("copied");
      function done(ok) { status.textContent = ok ? "Copied" : "Select the citation and copy it"; }
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
      } else { done(false); }
    });
  }
})();
