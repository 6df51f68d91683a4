"""dev.py: translations compiled in pure Python (Babel, no GNU gettext) and read by Django;
the command line (help, --port, errors)."""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings
from django.utils import translation
from django.utils.translation.reloader import translation_file_changed

import dev

ROOT = Path(dev.__file__).resolve().parent


@pytest.fixture
def babel() -> None:
    """Babel compiles the translations (requirements.txt); a venv made before it was
    pinned skips these tests locally (python3 dev.py test installs it); CI never skips."""
    if not os.environ.get("CI"):
        pytest.importorskip("babel", reason="Babel not installed: python3 dev.py test installs it")


def _forget_loaded_translations() -> None:
    # What Django does when runserver sees a .mo file change.
    translation_file_changed(sender=None, file_path=Path("changed.mo"))


def _copy_catalogs(target: Path) -> list[Path]:
    copies = []
    for po in dev.find_catalogs(ROOT):
        copy = target / po.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(po, copy)
        copies.append(copy)
    return copies


def test_every_locale_folder_is_found_whatever_the_apps() -> None:
    found = dev.find_catalogs(ROOT)
    # The project's locale/ and every app's (clocks/, notifications/… wherever they move).
    expected = {*ROOT.glob("locale/*/LC_MESSAGES/*.po"), *ROOT.glob("*/locale/*/LC_MESSAGES/*.po")}
    expected = {po for po in expected if not po.relative_to(ROOT).parts[0].startswith(".")}
    assert len(expected) >= 6 and expected <= set(found)
    # Nothing from the virtual environment (Django's own catalogs) or var/.
    assert all(not part.startswith(".") for po in found for part in po.relative_to(ROOT).parts)
    assert all(po.relative_to(ROOT).parts[0] != "var" for po in found)


def test_a_new_apps_locale_is_found_and_environments_are_not(tmp_path: Path) -> None:
    wanted = [
        tmp_path / "locale/ru/LC_MESSAGES/django.po",
        tmp_path / "newapp/locale/eo/LC_MESSAGES/django.po",
        tmp_path / "newapp/sub/locale/ru/LC_MESSAGES/djangojs.po",
    ]
    skipped = [
        tmp_path / ".venv/lib/django/conf/locale/ru/LC_MESSAGES/django.po",
        tmp_path / "venv/lib/django/conf/locale/ru/LC_MESSAGES/django.po",
        tmp_path / "var/locale/ru/LC_MESSAGES/django.po",
        tmp_path / "newapp/notlocale/ru/LC_MESSAGES/django.po",
    ]
    for po in wanted + skipped:
        po.parent.mkdir(parents=True, exist_ok=True)
        po.write_text('msgid ""\nmsgstr ""\n')
    (tmp_path / "venv/pyvenv.cfg").write_text("home = /usr/bin\n")
    assert dev.find_catalogs(tmp_path) == sorted(wanted)


def test_compiles_as_msgfmt_does(tmp_path: Path, babel: None) -> None:
    po = tmp_path / "locale/ru/LC_MESSAGES/django.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : '
        'n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
        'msgid "Game"\nmsgstr "Партия"\n\n'
        'msgctxt "verb"\nmsgid "Play"\nmsgstr "Играть"\n\n'
        '#, fuzzy\nmsgid "Draft"\nmsgstr "Черновик"\n\n'
        'msgid "Untranslated"\nmsgstr ""\n\n'
        'msgid "%(n)d game"\nmsgid_plural "%(n)d games"\n'
        'msgstr[0] "%(n)d партия"\nmsgstr[1] "%(n)d партии"\nmsgstr[2] "%(n)d партий"\n\n'
        'msgid "%(n)d turn"\nmsgid_plural "%(n)d turns"\n'
        'msgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\n\n'
        '#~ msgid "Old"\n#~ msgstr "Старое"\n',
        encoding="utf-8",
    )
    assert dev.compile_catalog(po) is True
    assert dev.compile_catalog(po) is False  # unchanged: not rewritten
    with po.with_suffix(".mo").open("rb") as mo:
        catalog = gettext.GNUTranslations(mo)
    # Called through other names: makemessages must not extract these test strings.
    one, context, plural = catalog.gettext, catalog.pgettext, catalog.ngettext
    assert one("Game") == "Партия"
    assert context("verb", "Play") == "Играть"
    assert one("Draft") == "Draft"  # fuzzy: left out
    assert one("Untranslated") == "Untranslated"
    assert one("Old") == "Old"  # obsolete
    assert [plural("%(n)d game", "%(n)d games", n) for n in (1, 3, 5)] == [
        "%(n)d партия",
        "%(n)d партии",
        "%(n)d партий",
    ]
    # An untranslated plural falls back to English, never to an empty string.
    assert plural("%(n)d turn", "%(n)d turns", 5) == "%(n)d turns"


def test_a_format_error_is_refused(tmp_path: Path, babel: None) -> None:
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#, python-format\nmsgid "%(name)s moved"\nmsgstr "%(nom)s a joué"\n',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="django.po"):
        dev.compile_catalog(po)
    assert not (tmp_path / "django.mo").exists()


def test_compiling_needs_no_gnu_gettext(tmp_path: Path, babel: None) -> None:
    copies = _copy_catalogs(tmp_path / "tree")
    empty = tmp_path / "bin"
    empty.mkdir()
    assert shutil.which("msgfmt", path=str(empty)) is None
    done = subprocess.run(
        [sys.executable, "-c", f"import dev; dev.compile_catalogs(dev.Path({str(tmp_path)!r}))"],
        cwd=ROOT,
        env={"PATH": str(empty), "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for po in copies:
        with po.with_suffix(".mo").open("rb") as mo:
            assert gettext.GNUTranslations(mo).info()["language"] == po.parts[-3]


def test_django_reads_what_was_compiled(tmp_path: Path, babel: None) -> None:
    """Each ru catalog, compiled from a copy with one message marked, is what Django serves."""
    from babel.messages.pofile import read_po, write_po

    copies = [po for po in _copy_catalogs(tmp_path) if po.parts[-3] == "ru"]
    seen: dict[str, int] = {}
    catalogs = {}
    for po in copies:
        with po.open("rb") as source:
            catalogs[po] = read_po(source)
        for message in catalogs[po]:
            if message.id and isinstance(message.id, str):
                seen[message.id] = seen.get(message.id, 0) + 1
    marked = {}
    for po, catalog in catalogs.items():
        # A message of this catalog only, so the translation can come from nowhere else.
        msgid = next(
            m.id
            for m in catalog
            if isinstance(m.id, str)
            and m.id
            and m.context is None
            and m.string
            and not m.fuzzy
            and seen[m.id] == 1
        )
        marked[msgid] = f"{catalog[msgid].string} [{po.relative_to(tmp_path).parts[0]}]"
        catalog[msgid].string = marked[msgid]
        with po.open("wb") as target:
            write_po(target, catalog)
    dev.compile_catalogs(tmp_path)
    folders = sorted({str(po.parents[2]) for po in copies})  # the locale/ folders
    with override_settings(LOCALE_PATHS=folders), translation.override("ru"):
        for msgid, expected in marked.items():
            assert translation.gettext(msgid) == expected
    assert len(marked) == len(copies) >= 3


def test_django_reads_the_project_catalogs_after_compiling(babel: None) -> None:
    dev.compile_catalogs(ROOT)  # what dev.py start and dev.py test do first
    _forget_loaded_translations()
    one, plural = translation.gettext, translation.ngettext  # not extracted by makemessages
    try:
        with translation.override("ru"):
            assert one("Revoke the selected tokens") == "Отозвать выбранные токены"
            assert one("Correspondence clocks") == "Контроль времени"
            assert one("Under 24 hours left") == "Осталось меньше 24 часов"
            assert plural("%(n)d day", "%(n)d days", 5) == "%(n)d дней"
        with translation.override("eo"):
            assert one("Notifications") != "Notifications"
    finally:
        _forget_loaded_translations()


# --- The command line: parsed before anything is installed or started ------------------


def test_help_prints_and_starts_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["-h"], ["start", "--help"]):
        with pytest.raises(SystemExit) as stopped:
            dev.parse(argv)
        assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert "start" in out and "--port N" in out


@pytest.mark.parametrize(
    "argv",
    [["serve"], ["start", "--bogus"], ["start", "--port"], ["start", "--port", "x"],
     ["start", "--port", "70000"], ["start", "8001"], []],
)  # fmt: skip
def test_a_bad_command_line_is_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        dev.parse(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    if argv:  # no command at all prints the whole help
        assert err.count("\n") == 1 and "error:" in err and "--help" in err


def test_port_and_passed_through_arguments() -> None:
    assert dev.parse(["start"]).port == 8000
    assert dev.parse(["start", "--port", "8123"]).port == 8123
    # test and manage hand everything on, --help included (pytest's or manage.py's help).
    assert dev.parse(["test", "--help"]).args == ["--help"]
    assert dev.parse(["test", "-k", "pie", "-x", "--port", "1"]).args == [
        "-k", "pie", "-x", "--port", "1",
    ]  # fmt: skip
    assert dev.parse(["manage", "shell", "-c", "print(1)"]).args == ["shell", "-c", "print(1)"]


def test_children_get_the_port_in_site_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SITE_URL", raising=False)
    assert dev.start_env(8123)["SITE_URL"] == "http://127.0.0.1:8123"
    monkeypatch.setenv("SITE_URL", "https://adaptoid.example")
    assert dev.start_env(8123)["SITE_URL"] == "https://adaptoid.example"
    assert os.environ["SITE_URL"] == "https://adaptoid.example"
