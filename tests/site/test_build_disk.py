"""``rulebook build`` on a full disk, into a read-only folder, and with a read-only cache: exit 2
with the reason, the previous site left as it was, and no staging folder left behind."""

from __future__ import annotations

from pathlib import Path

from tests.site.conftest import rulebook_build, write_site
from tests.tmpfs import make_read_only, tmpfs

OLD = "<p>the previous site</p>\n"


def previous_site(folder: Path) -> Path:
    site = folder / "site"
    site.mkdir()
    (site / "index.html").write_text(OLD, encoding="utf-8")
    return site


def only_the_previous_site_is_there(site: Path) -> None:
    assert sorted(path.name for path in site.parent.iterdir()) == ["site"]  # no staging folder
    assert [path.name for path in site.iterdir()] == ["index.html"]
    assert (site / "index.html").read_text(encoding="utf-8") == OLD


def test_a_site_build_that_runs_out_of_disk_keeps_the_previous_site(tmp_path: Path) -> None:
    root = write_site(tmp_path / "project")
    with tmpfs(tmp_path / "small", "1m") as disk:  # the tiny site takes about 3 MB
        site = previous_site(disk)
        result = rulebook_build(root, site).result
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        assert "the site could not be written: No space left on device" in result.stderr
        assert "the previous site is left as it was" in result.stderr
        only_the_previous_site_is_there(site)


def test_a_read_only_output_folder_keeps_the_previous_site(tmp_path: Path) -> None:
    root = write_site(tmp_path / "project")
    with tmpfs(tmp_path / "read-only", "1m") as disk:
        site = previous_site(disk)
        make_read_only(disk)
        result = rulebook_build(root, site).result
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        assert "the site could not be written: Read-only file system" in result.stderr
        only_the_previous_site_is_there(site)


def test_a_read_only_cache_stops_the_build_and_keeps_the_previous_site(tmp_path: Path) -> None:
    root = write_site(tmp_path / "project")
    (tmp_path / "out").mkdir()
    site = previous_site(tmp_path / "out")
    with tmpfs(root / ".cache", "1m") as cache:  # the plugin's cache: the theme, the diagrams
        make_read_only(cache)
        result = rulebook_build(root, site).result
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        assert "Read-only file system" in result.stderr
        assert "the previous one is left as it was" in result.stderr
        only_the_previous_site_is_there(site)


def test_a_build_replaces_the_previous_site_and_leaves_nothing_beside_it(tmp_path: Path) -> None:
    root = write_site(tmp_path / "project")
    (tmp_path / "out").mkdir()
    site = previous_site(tmp_path / "out")
    result = rulebook_build(root, site).result
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in site.parent.iterdir()) == ["site"]
    assert (site / "index.html").read_text(encoding="utf-8") != OLD
    assert (site / "en" / "index.html").is_file()
