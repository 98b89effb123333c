"""The wheel ships every package and every data file: pyproject's explicit package list
names every package under controller/, and the package-data globs cover every file in
templates/ and profiles/ (the wheel itself is built and run outside the checkout by
.ci/wheel_check)."""

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _setuptools():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def _package_dirs() -> dict[str, Path]:
    """Every listed package -> its directory (package-dir mappings applied)."""
    st = _setuptools()
    mapped = {k: ROOT / v for k, v in st.get("package-dir", {}).items()}
    out = {}
    for pkg in st["packages"]:
        base = next((m for m in sorted(mapped, key=len, reverse=True) if pkg == m or pkg.startswith(m + ".")), None)
        if base is None:
            out[pkg] = ROOT.joinpath(*pkg.split("."))
        else:
            out[pkg] = mapped[base].joinpath(*pkg[len(base) + 1:].split(".")) if pkg != base else mapped[base]
    return out


def test_every_python_package_under_controller_is_listed():
    listed = set(_setuptools()["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "controller").rglob("__init__.py")
             if "__pycache__" not in p.parts}
    assert found, "no packages found"
    assert found - listed == set(), f"packages missing from pyproject's list: {sorted(found - listed)}"
    for pkg, d in _package_dirs().items():
        assert d.is_dir(), f"{pkg} maps to {d}, which does not exist"


def test_package_data_covers_templates_and_profiles():
    st = _setuptools()
    globs = st.get("package-data", {})
    dirs = _package_dirs()
    shipped = set()
    for pkg, pats in globs.items():
        d = dirs[pkg]
        for f in d.iterdir():
            if f.is_file() and any(fnmatch.fnmatch(f.name, pat) for pat in pats):
                shipped.add(f.resolve())
    for top in ("templates", "profiles"):
        files = {f.resolve() for f in (ROOT / top).rglob("*") if f.is_file() and "__pycache__" not in f.parts}
        assert files, top
        missing = sorted(str(f.relative_to(ROOT)) for f in files - shipped)
        assert not missing, f"not covered by [tool.setuptools.package-data]: {missing}"
    # and every directory under them is a listed package (or its files would not be found)
    for top, pkg in (("templates", "controller.data.templates"), ("profiles", "controller.data.profiles")):
        for d in [ROOT / top] + [p for p in (ROOT / top).rglob("*") if p.is_dir() and p.name != "__pycache__"]:
            name = ".".join([pkg] + list(d.relative_to(ROOT / top).parts))
            assert name in dirs, f"{d.relative_to(ROOT)} is not a package in pyproject ({name})"


def test_resources_find_the_data():
    from controller import resources

    assert (resources.templates_dir() / "tor_v1model.p4.j2").is_file()
    assert sorted(p.stem for p in resources.profiles_dir().glob("*.toml")) == \
        sorted(p.stem for p in (ROOT / "profiles").glob("*.toml"))


def test_package_data_covers_the_dashboard():
    """The daemon's dashboard (HTML/JS/CSS served by its status API) ships in the wheel."""
    globs = _setuptools().get("package-data", {}).get("controller.daemon", [])
    d = ROOT / "controller" / "daemon"
    files = [f.relative_to(d).as_posix() for f in (d / "dashboard").rglob("*") if f.is_file()]
    assert {"dashboard/index.html", "dashboard/app.js", "dashboard/style.css"} <= set(files)
    missing = [f for f in files if not any(fnmatch.fnmatch(f, pat) for pat in globs)]
    assert not missing, f"not covered by [tool.setuptools.package-data] controller.daemon: {missing}"
