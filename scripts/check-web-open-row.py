"""The open row of issue 39, in headless Chromium with real touch and wheel input (loaded by
scripts/check-web.py): as in UIKit and Telegram's list, a tap outside the open row (on another row,
its minus control in edit mode, or the list's empty area) closes it and does nothing else, and so
does a scroll of the list. Each close is an action that reaches the server (its `revealedRowId`)."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By


def touch(page, moves, pause_ms=16):
    """One finger: down at the first (x, y), through the others, up at the last."""
    actions = ActionBuilder(page.d, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"), duration=0)
    p = actions.pointer_action
    p.move_to_location(*moves[0])
    p.pointer_down()
    for x, y in moves[1:]:
        p.move_to_location(x, y)
        p.pause(pause_ms / 1000)
    p.pointer_up()
    actions.perform()


def centre(page, element):
    x, y = page.js("const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]",
                   element)
    return round(x), round(y)


def tap(page, element):
    touch(page, [centre(page, element)])


def open_row(page, api, list_name, row_id):
    page.drag(row_id, -44, steps=11, step_ms=60, hold_ms=150)
    return page.wait(lambda: api.rows(list_name)["revealedRowId"] == row_id and page.offset(row_id) == -74)


def closed(page, api, list_name, row_id):
    """The open row closed on the server and on the page, and nothing is left to send."""
    return page.wait(lambda: api.rows(list_name)["revealedRowId"] is None and page.offset(row_id) == 0
                     and page.js("return window.recentsPage.state.pending") == 0)


def reset(page, api, list_name, row_id):
    """Closes the row from outside when a check above failed to, so the next check starts from a closed row."""
    if api.rows(list_name)["revealedRowId"] is not None:
        api.call("PUT", f"/v1/lists/{list_name}/rows/{row_id}/reveal", {"revealed": False})
        page.wait(lambda: page.offset(row_id) == 0)


def run(page, api, check, now):
    calls = [dict(id=f"o-{i:02}", peer=dict(id=f"p{i}", name=f"Person {i}"), direction="incoming",
                  timestamp=int(now) - 600 * i) for i in range(40)]
    api.post("open-row", calls)
    page.open("open-row")
    ok, truth = page.settled(api, "open-row")
    first, second = truth["rows"][0]["id"], truth["rows"][1]["id"]
    check(ok and open_row(page, api, "open-row", first), "open-row: a drag opens the first row")

    address = page.d.current_url
    tap(page, page.row(second))
    ok = closed(page, api, "open-row", first)
    quiet = (page.offset(second) == 0 and not page.js("return document.getElementById('sheet').open")
             and page.d.current_url == address)
    check(ok and quiet, "a tap on another row closes the open row (on the server too); the tapped row does not open",
          (api.rows("open-row")["revealedRowId"], page.offset(first), page.offset(second), quiet))

    # Edit mode: the other row's minus control opens that row, except while a row is open.
    reset(page, api, "open-row", first)
    page.d.find_element(By.ID, "edit").click()
    page.wait(lambda: api.rows("open-row")["editing"])
    page.d.find_element(By.CSS_SELECTOR, f'li.row[data-id="{first}"] .row-minus').click()
    opened = page.wait(lambda: api.rows("open-row")["revealedRowId"] == first and page.offset(first) == -74)
    tap(page, page.d.find_element(By.CSS_SELECTOR, f'li.row[data-id="{second}"] .row-minus'))
    ok = closed(page, api, "open-row", first)
    check(opened and ok and page.offset(second) == 0,
          "in edit mode a tap on another row's minus only closes the open row", api.rows("open-row")["revealedRowId"])
    reset(page, api, "open-row", first)
    page.d.find_element(By.ID, "edit").click()
    page.wait(lambda: not api.rows("open-row")["editing"])
    page.settled(api, "open-row")

    # A scroll closes it: a wheel, then a finger dragging the list up.
    check(open_row(page, api, "open-row", first), "open-row: the first row opens again")
    ActionChains(page.d).scroll_by_amount(0, 300).perform()
    ok = closed(page, api, "open-row", first)
    check(ok and page.js("return window.scrollY") > 0, "a wheel scroll of the list closes the open row",
          (api.rows("open-row")["revealedRowId"], page.js("return window.scrollY")))
    reset(page, api, "open-row", first)
    page.js("window.scrollTo(0, 0)")
    page.wait(lambda: page.js("return window.scrollY") == 0)
    check(open_row(page, api, "open-row", first), "open-row: and again")
    x, y = centre(page, page.row(truth["rows"][4]["id"]))
    touch(page, [(x, y - 20 * i) for i in range(16)])
    ok = closed(page, api, "open-row", first)
    check(ok and page.js("return window.scrollY") > 0, "a touch scroll of the list closes the open row",
          (api.rows("open-row")["revealedRowId"], page.js("return window.scrollY")))

    reset(page, api, "open-row", first)

    # The list's empty area: below the last row of a short list.
    api.post("open-row-short", calls[:2])
    page.open("open-row-short")
    ok, truth = page.settled(api, "open-row-short")
    only = truth["rows"][0]["id"]
    check(ok and open_row(page, api, "open-row-short", only), "open-row: a row of a short list opens")
    bottom = page.js("return document.querySelector('#rows > li:last-child').getBoundingClientRect().bottom")
    below = (200, round(bottom) + 60)
    outside = page.js("return !document.elementFromPoint(arguments[0], arguments[1]).closest('.row, .bar')", *below)
    touch(page, [below])
    ok = closed(page, api, "open-row-short", only)
    check(outside and ok, "a tap on the list's empty area closes the open row",
          (outside, api.rows("open-row-short")["revealedRowId"]))
