"""Dates as people write them: ISO 8601 in card files and in --now, the site's time zone, and
cards dated in the future (issue 31, item 5)."""
import json
import os
import re
import subprocess

from conftest import write_cards

ACCEPTED = "Unix seconds, or an ISO 8601 date or date-time such as 2026-11-20, 2026-11-20T14:05:00Z or 2026-11-20T14:05:00+02:00"


def card(id, created, **fields):
    return {"id": id, "type": "text_announcement", "created": created, "description": f"Card {id}", **fields}


def diagnostics(result):
    return [json.loads(line) for line in result.stderr.splitlines() if line.strip()]


def times(site):
    """The cards' `<time>` elements on the all feed's first page, in order: (datetime, text)."""
    html = (site / "public" / "index.html").read_text()
    return re.findall(r'<time class="card__date" datetime="([^"]*)">([^<]*)</time>', html)


def shown_ids(site):
    return re.findall(r'<article[^>]* id="card-([^"]+)"', (site / "public" / "index.html").read_text())


def test_iso_dates_in_every_date_field_are_read_without_a_warning(run, tmp_path):
    site = write_cards(tmp_path / "s", [
        card("date", "2026-11-20"),
        card("zulu", "2026-11-20T14:05:00Z", updated="2026-11-21T08:00:00.250Z"),
        {"id": "short", "tp": "text_announcement", "ds": "Short keys", "ca": "2026-11-20T16:05:00+02:00", "ea": "2026-12-31"},
        card("expired", "2026-11-01", expires_at="2026-11-30T23:59:59+00:00"),
        card("seconds", 1795000000),
        card("millis", 1795100000000),
    ])
    result = run("build", site, "--now", "2026-12-01", "--diagnostics", "json")
    assert result.returncode == 0, result.stderr
    assert diagnostics(result) == []
    # Sorted by their times (updated, else created), newest first; the expired one is hidden.
    assert shown_ids(site) == ["zulu", "short", "date", "millis", "seconds"]
    assert times(site) == [
        ("2026-11-20T14:05:00Z", "Nov 20, 2026"), ("2026-11-20T14:05:00Z", "Nov 20, 2026"),
        ("2026-11-20T00:00:00Z", "Nov 20, 2026"), ("2026-11-19T14:53:20Z", "Nov 19, 2026"),
        ("2026-11-18T11:06:40Z", "Nov 18, 2026"),
    ]
    assert re.search(r'1 not shown \(1 expired: "[^"]+"\)', result.stdout), result.stdout


def test_a_value_that_is_no_time_gets_one_warning_naming_card_field_and_forms(run, tmp_path):
    site = tmp_path / "s"
    site.mkdir()
    (site / "cards.json").write_text('[\n  {"id": "ok", "type": "text_announcement", "created": 1, "description": "d"},\n'
                                     '  {"id": "uk", "type": "text_announcement", "description": "d",\n'
                                     '   "created": "20/11/2026"}\n]\n')
    result = run("check", site, "--now", "1800000000", "--diagnostics", "json")
    assert result.returncode == 0, result.stderr
    [warning] = diagnostics(result)
    assert warning["severity"] == "warning"
    assert (warning["file"], warning["card"], warning["id"], warning["field"]) == ("s/cards.json", 2, "uk", "created")
    assert warning["line"] in (3, 4)  # the card, or (once warnings point there) its field
    assert warning["message"] == f'"20/11/2026" is not a time: expected {ACCEPTED}; the card shows no date and sorts as the oldest'


def test_now_takes_a_date_or_date_time(run, example_site, tmp_path):
    outputs = {}
    for now in ["1800000000", "2027-01-15T08:00:00Z", "2027-01-15T09:00:00+01:00", "2027-01-15T08:00:00.000z"]:
        output = tmp_path / f"out-{len(outputs)}"
        result = run("build", example_site, "--now", now, "--output", output, "-q")
        assert result.returncode == 0, result.stderr
        outputs[now] = {p.relative_to(output): p.read_bytes() for p in sorted(output.rglob("*")) if p.is_file()}
    first = outputs.pop("1800000000")
    for now, files in outputs.items():
        assert files == first, now


def test_now_that_is_no_time_is_refused_with_the_forms_it_takes(run, example_site):
    for value in ["yesterday", "2026-13-01", "2026-11-20T25:00:00Z", "=-5"]:
        args = ["--now" + value] if value.startswith("=") else ["--now", value]
        result = run("check", example_site, *args)
        assert result.returncode != 0, value
        assert "--now <time>" in result.stderr and "ISO 8601" in result.stderr, result.stderr
        assert not (example_site / "public").exists()


def test_the_timezone_setting_changes_the_dates_people_see_not_the_machine_readable_ones(run, cardfeed_bin, tmp_path):
    site = write_cards(tmp_path / "s", [card("night", "2026-11-20T02:13:00Z")])

    def build(machine_zone):
        environment = {**os.environ, "TZ": machine_zone}
        result = subprocess.run([str(cardfeed_bin), "build", site, "--now", "1800000000", "-q"], capture_output=True, text=True,
                                env=environment, timeout=120)
        assert result.returncode == 0, result.stderr
        return times(site)

    # Without a setting, UTC, whatever the machine's zone.
    assert build("America/Los_Angeles") == [("2026-11-20T02:13:00Z", "Nov 20, 2026")]
    assert build("Pacific/Kiritimati") == [("2026-11-20T02:13:00Z", "Nov 20, 2026")]
    (site / "cardfeed.yml").write_text("timezone: America/New_York\n")
    assert build("Pacific/Kiritimati") == [("2026-11-20T02:13:00Z", "Nov 19, 2026")]
    assert build("UTC") == [("2026-11-20T02:13:00Z", "Nov 19, 2026")]


def test_a_date_without_a_time_is_midnight_on_the_site_clocks(run, tmp_path):
    site = write_cards(tmp_path / "s", [
        card("dated", "2026-11-20"),
        card("ends", "2026-11-01", expires_at="2026-11-19T20:00:00Z"),
    ])
    (site / "cardfeed.yml").write_text("timezone: Asia/Tokyo\n")
    # --now 2026-11-20 is midnight in Tokyo, 2026-11-19T15:00Z: before the card expires.
    result = run("build", site, "--now", "2026-11-20", "-q")
    assert result.returncode == 0, result.stderr
    assert times(site)[0] == ("2026-11-19T15:00:00Z", "Nov 20, 2026")
    assert "ends" in shown_ids(site)
    # In UTC, midnight is after it.
    (site / "cardfeed.yml").write_text("timezone: UTC\n")
    result = run("build", site, "--now", "2026-11-20", "-q")
    assert result.returncode == 0, result.stderr
    assert times(site)[0] == ("2026-11-20T00:00:00Z", "Nov 20, 2026")
    assert shown_ids(site) == ["dated"]


def test_an_unknown_time_zone_is_an_error_with_its_place_and_a_suggestion(run, tmp_path):
    site = write_cards(tmp_path / "s", [card("a", 1)])
    (site / "cardfeed.yml").write_text("title: Coffee\ntimezone: America/NewYork\n")
    result = run("build", site, "--now", "1800000000", "--diagnostics", "json")
    assert result.returncode == 1
    [error] = diagnostics(result)
    assert (error["severity"], error["file"], error["line"], error["column"], error["field"]) == ("error", "s/cardfeed.yml", 2, 11, "timezone")
    assert 'unknown time zone "America/NewYork" (did you mean "America/New_York"?)' in error["message"]
    assert not (site / "public").exists()


def test_a_card_dated_in_the_future_is_shown_with_a_warning_by_default(run, tmp_path):
    site = write_cards(tmp_path / "s", [card("today", "2026-11-20"), card("later", "2033-01-01")])
    result = run("build", site, "--now", "2026-11-20T12:00:00Z", "--diagnostics", "json")
    assert result.returncode == 0, result.stderr
    [warning] = diagnostics(result)
    assert (warning["severity"], warning["file"], warning["card"], warning["id"], warning["field"]) == ("warning", "s/cards.json", 2, "later", "created")
    assert "2033-01-01T00:00:00Z, after the build's time (2026-11-20T12:00:00Z, --now)" in warning["message"]
    assert "future: hide" in warning["message"]
    assert shown_ids(site) == ["later", "today"]
    # The date in the card is not in the future once the build's time has come.
    result = run("build", site, "--now", "2033-01-01", "--diagnostics", "json")
    assert diagnostics(result) == []


def test_future_hide_keeps_a_card_until_its_date(run, tmp_path):
    site = write_cards(tmp_path / "s", [card("today", "2026-11-20"), card("later", "2033-01-01"), card("soon", "2026-12-24T18:00:00")])
    (site / "cardfeed.yml").write_text("timezone: Europe/Berlin\nfuture: hide\n")
    result = run("build", site, "--now", "2026-11-20T12:00:00Z", "--strict")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert shown_ids(site) == ["today"]
    assert '1 shown, 2 not shown (2 waiting for their date: "later", "soon")' in result.stdout
    assert "2 cards wait for their date: soon (2026-12-24T17:00:00Z), later (2032-12-31T23:00:00Z)" in result.stdout
    # At 18:00 in Berlin on Christmas Eve, "soon" is due.
    result = run("build", site, "--now", "2026-12-24T18:00:00")
    assert result.returncode == 0, result.stderr
    assert shown_ids(site) == ["soon", "today"]
    assert '1 not shown (1 waiting for their date: "later")' in result.stdout


def test_future_takes_show_or_hide(run, tmp_path):
    site = write_cards(tmp_path / "s", [card("a", 1)])
    (site / "cardfeed.yml").write_text("future: later\n")
    result = run("check", site, "--now", "1800000000", "--diagnostics", "json")
    assert result.returncode == 1
    [error] = diagnostics(result)
    assert (error["file"], error["line"], error["column"], error["field"]) == ("s/cardfeed.yml", 1, 9, "future")
    assert error["message"].startswith("must be show (")


def test_a_rule_may_set_expires_at_to_a_date(run, tmp_path):
    site = write_cards(tmp_path / "s", [card("a", "2026-11-01"), card("b", "2026-11-02")])
    (site / "cardfeed.yml").write_text("timezone: America/New_York\nrules:\n  - match: {id: a}\n    set:\n      expires_at: 2026-11-20\n")
    result = run("build", site, "--now", "2026-11-20T04:59:59Z", "-q")
    assert result.returncode == 0, result.stderr
    assert shown_ids(site) == ["b", "a"]
    result = run("build", site, "--now", "2026-11-20T05:00:00Z", "-q")
    assert shown_ids(site) == ["b"]
    (site / "cardfeed.yml").write_text("rules:\n  - match: {id: a}\n    set:\n      expires_at: soon\n")
    result = run("check", site, "--now", "1800000000")
    assert result.returncode == 1
    assert "expected a time: Unix seconds, or an ISO 8601 date" in result.stderr
