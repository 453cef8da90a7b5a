"""The row markup contract of Web/list-view.js in Python, for scripts/web-dev-server.py's stand-in of
the server's first view in `/` (until the server renders it) and as a second reading of the
contract: `python3 scripts/row-markup.py` checks it against Tests/Fixtures/rows-markup.json.
"""
import json
import math
import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
# JavaScript's \s: Unicode White_Space (without U+0085) and U+FEFF.
JS_SPACE = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")


def escape(value):
    return str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def initials(name):
    words = [w for w in JS_SPACE.split(name) if w]
    if not words:
        return "?"
    return (words[0][0] + (words[-1][0] if len(words) > 1 else "")).upper()


def avatar_colour(peer_id):
    h = 0x811C9DC5
    units = peer_id.encode("utf-16-le")
    for i in range(0, len(units), 2):
        h ^= units[i] | (units[i + 1] << 8)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h % 7


def display_name(row):
    return f"{row['peer']['name']} ({row['count']})" if row["count"] > 1 else row["peer"]["name"]


def status_text(row):
    if row["missed"]:
        return "Missed"
    return "Outgoing" if row["status"] == "outgoing" else "Incoming"


def row_time(timestamp, tz, now):
    day = lambda s: math.floor((s + tz * 60) / 86400)
    local = time.gmtime(timestamp + tz * 60)
    days = day(now) - day(timestamp)
    if days == 0:
        return time.strftime("%H:%M", local)
    if days == 1:
        return "Yesterday"
    if 1 < days < 7:
        return WEEKDAYS[(local.tm_wday + 1) % 7]
    return time.strftime("%d.%m.%y", local)


def row_html(row, tz, now, button_width=74):
    name = escape(display_name(row))
    title = escape(row["options"][-1]["title"] if row.get("options") else "Delete")
    when = row_time(row["timestamp"], tz, now)
    label = f"{display_name(row)}, {status_text(row).lower()} {'video call' if row['video'] else 'call'}, {when}"
    revealed = row["revealed"]
    offset = -(button_width * max(1, len(row.get("options") or [1]))) if revealed else 0
    return (
        f'<li class="row{" revealed" if revealed else ""}" data-id="{escape(row["id"])}" data-offset="{offset}">'
        f'<div class="row-actions"{"" if revealed else " inert"}>'
        f'<button type="button" class="row-delete" tabindex="{0 if revealed else -1}" aria-label="{title} {name}">{title}</button>'
        f"</div>"
        f'<div class="row-content" tabindex="0" role="group" aria-label="{escape(label)}">'
        f'<button type="button" class="row-minus" tabindex="{0 if row["editing"] else -1}" aria-label="Show {title} for {name}">'
        f'<span aria-hidden="true"></span></button>'
        f'<span class="avatar avatar-{avatar_colour(row["peer"]["id"])}" aria-hidden="true">{escape(initials(row["peer"]["name"]))}</span>'
        f'<span class="row-text"><span class="row-name{" missed" if row["missed"] else ""}">{name}</span>'
        f'<span class="row-status"><span class="glyph{" video" if row["video"] else ""}" data-kind="{"video" if row["video"] else "phone"}" aria-hidden="true"></span>'
        f'<span class="row-status-text">{escape(status_text(row))}</span></span></span>'
        f'<time class="row-time">{escape(when)}</time>'
        f'<button type="button" class="row-info" aria-label="Call info"><span aria-hidden="true"></span></button>'
        f"</div></li>"
    )


def list_html(rows, editing, tz, now, button_width=74):
    inner = "".join(row_html(r, tz, now, button_width) for r in rows)
    return f'<ul id="rows" class="rows{" editing" if editing else ""}" aria-label="Calls">{inner}</ul>'


def check_fixture():
    """Every case of Tests/Fixtures/rows-markup.json, rendered here; returns the names that differ."""
    with open(os.path.join(ROOT, "Tests", "Fixtures", "rows-markup.json"), encoding="utf-8") as f:
        fixture = json.load(f)
    wrong = [c["name"] for c in fixture["cases"]
             if row_html(c["row"], c["tz"], fixture["now"], fixture["buttonWidth"]) != c["html"]]
    l = fixture["list"]
    if list_html(l["rows"], l["editing"], l["tz"], fixture["now"], fixture["buttonWidth"]) != l["html"]:
        wrong.append(l["name"])
    return wrong


if __name__ == "__main__":
    wrong = check_fixture()
    print("row-markup.py: " + ("every case of rows-markup.json matches" if not wrong else f"differs: {wrong}"))
    sys.exit(1 if wrong else 0)
