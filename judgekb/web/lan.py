"""Serving phones on the venue network: the address they should open, and a QR code for it."""

from __future__ import annotations

import socket


def lan_address() -> str | None:
    """This machine's address on the local network (the interface a packet to the LAN would leave by).

    A UDP "connect" sends nothing; it only asks the kernel which source address it would use.
    """
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 1))
                address = s.getsockname()[0]
        except OSError:
            continue
        if address and not address.startswith("127."):
            return address
    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        return None
    return None if address.startswith("127.") else address


def qr_text(url: str) -> str:
    """The URL as a QR code drawn with block characters, for a phone camera pointed at the terminal."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def announcement(port: int, address: str | None) -> str:
    """What ``judgekb serve --lan`` prints: the address to open on a phone and its QR code."""
    if address is None:
        return (
            f"judgekb: no local network address found; phones cannot reach this machine.\n"
            f"Join the venue Wi-Fi (or a phone hotspot) and start again; meanwhile http://127.0.0.1:{port}/ works here.\n"
        )
    url = f"http://{address}:{port}/"
    return (
        f"\nPhones on the same network: open {url}\n"
        f"(point the phone's camera at this code)\n\n{qr_text(url)}\n"
        "Plain HTTP: copy buttons use the fallback copy; offline copies on phones need https, so hand out the\n"
        "exported site (judgekb export-site DIR) to anyone who must keep working without the network.\n"
    )
