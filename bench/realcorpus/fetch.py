"""Download the pinned packages of ``manifest.toml`` and extract their documents.

``python -m bench.realcorpus.fetch [--cache DIR] [--jobs N] [--pin]``

Each package of the manifest is downloaded with its ecosystem's own client
(``pip download`` of the sdist, ``npm pack``, ``apt-get download``) into
``CACHE/archives/SOURCE/NAME-VERSION/``, its sha256 checked against the
manifest, and its candidate documents (chosen by file name, :func:`classify`)
kept when the bundled grammar and the format's reference loader both accept
them (:func:`accepts`), a CSV file is a table of two records or more
(:func:`is_corpus_document`), and their size is within ``MIN_BYTES..MAX_BYTES``.
What one package gives is stored in ``CACHE/extracted/SOURCE/NAME-VERSION.json``,
so a run that stopped resumes where it was; the merged, deduplicated corpus is
``CACHE/documents.jsonl`` (one document a line, with its provenance).

``--pin`` downloads the packages that have no sha256 yet and writes their
hashes (and, for Debian, the version ``apt-get`` chose) into the manifest;
packages whose download fails are reported and dropped from it.  The
documents themselves are never committed (licences, size).
"""

from __future__ import annotations

import argparse
import configparser
import csv
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from bench.damage.judges import data_reader
from bench.damage.lexing import is_valid, lex

MANIFEST = Path(__file__).with_name("manifest.toml")
MIN_BYTES, MAX_BYTES = 200, 64 * 1024
PER_PACKAGE = 150  # documents of one format from one package at most (no source dominates)
DOWNLOAD_TIMEOUT_S = 180
BATCH = {"deb": 100, "npm": 50}  # packages fetched by one apt-get or npm call
FORMATS = ("json", "jsonc", "yaml", "toml", "xml", "ini", "csv")


def default_cache() -> Path:
    return Path(os.environ.get("INPUTMEND_CORPUS_CACHE", Path.home() / ".cache/inputmend-corpus"))


@dataclass(frozen=True)
class Package:
    """One pinned archive: where it comes from, and the hash it must have."""

    source: str  # "pypi", "npm" or "deb"
    name: str
    version: str
    sha256: str = ""

    @property
    def key(self) -> str:
        return f"{self.name.replace('/', '+')}-{self.version}"


@dataclass(frozen=True)
class Document:
    """One accepted document and where it was found."""

    format: str
    text: str
    source: str
    package: str
    version: str
    path: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


def load_manifest(path: Path = MANIFEST) -> list[Package]:
    with path.open("rb") as handle:
        table = tomllib.load(handle)
    return [Package(**entry) for entry in table.get("package", [])]


def write_manifest(packages: Sequence[Package], path: Path = MANIFEST) -> None:
    head = path.read_text(encoding="utf-8").split("[[package]]", 1)[0] if path.exists() else ""
    entries = [
        f'[[package]]\nsource = "{p.source}"\nname = "{p.name}"\n'
        f'version = "{p.version}"\nsha256 = "{p.sha256}"\n'
        for p in packages
    ]
    path.write_text(head.rstrip("\n") + "\n\n" + "\n".join(entries), encoding="utf-8")


# ------------------------------------------------------------------ classify

# Files that their tools read as JSON with comments (and trailing commas):
# TypeScript's and the linters' configurations, Babel's (JSON5, of which the
# grammar keeps what is JSONC), VS Code's and Sublime Text's settings, snippets
# and workspaces, dev containers, and the tools of the JavaScript ecosystem
# that document comments in their JSON configuration.
_JSONC_NAME = re.compile(
    r"(^|/)("
    r"tsconfig[^/]*\.json|jsconfig[^/]*\.json|\.eslintrc(\.json)?|tslint\.json|\.jshintrc|"
    r"\.babelrc(\.json)?|babel\.config\.json|\.?cspell(-ext)?\.json|\.markdownlint(\.json|rc)|"
    r"turbo\.json|api-extractor[^/]*\.json|tsdoc\.json|typedoc\.json|deno\.json|"
    r"[^/]*\.jsonc|[^/]*\.code-(workspace|snippets)|\.vscode/[^/]*\.json|"
    r"language-configuration\.json|\.?devcontainer\.json|[^/]*\.sublime-[a-z]+"
    r")$"
)
_INI_NAME = re.compile(
    r"(^|/)([^/]*\.(ini|cfg|desktop)|\.flake8|\.coveragerc|\.pylintrc|pylintrc)$"
)
_XML_SUFFIXES = (".xml", ".svg", ".xsd", ".xsl", ".xslt", ".ui", ".policy", ".glade", ".plist")


def _json_loads(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def classify(path: str, text: str) -> str | None:
    """The format a file is meant to be in, by its name (``.conf`` files by their start).

    A ``.json`` file that ``json.loads`` rejects is a JSONC candidate: files
    named ``.json`` that keep comments or trailing commas are read by tools
    that accept them (:func:`accepts` then keeps it only when the JSONC
    grammar and reading do)."""
    lower = path.lower()
    if _JSONC_NAME.search(lower):
        return "jsonc"
    if lower.endswith(".json"):
        return "json" if _json_loads(text) else "jsonc"
    if lower.endswith((".yml", ".yaml")):
        return "yaml"
    if lower.endswith(".toml"):
        return "toml"
    if lower.endswith(_XML_SUFFIXES) or (lower.endswith(".conf") and text.startswith("<?xml")):
        return "xml"
    if _INI_NAME.search(lower):
        return "ini"
    if lower.endswith(".csv"):
        return "csv"
    return None


def _configparser_reads(text: str) -> bool:
    try:
        configparser.ConfigParser(interpolation=None).read_string(text)
    except configparser.Error:
        return False
    return True


def _csv_rows(text: str) -> list[list[str]]:
    return [row for row in csv.reader(io.StringIO(text, newline="")) if row]


def _csv_one_column_count(text: str) -> bool:
    """All records with the header's number of fields."""
    rows = _csv_rows(text)
    return all(len(row) == len(rows[0]) for row in rows)


def _csv_is_table(text: str) -> bool:
    """Two records or more, all with the header's number of fields (two or more)."""
    rows = _csv_rows(text)
    return len(rows) >= 2 and len(rows[0]) >= 2 and _csv_one_column_count(text)


_LOADER_CHECKS = {"ini": _configparser_reads, "csv": _csv_one_column_count}

_DOCUMENT_CHECKS = {"csv": _csv_is_table}


def accepts(fmt: str, text: str) -> bool:
    """Do the bundled grammar and the format's reference loader both accept ``text``?

    The data readers of ``bench.damage.judges`` are the loaders (json.loads,
    tomllib, PyYAML's safe_load_all, ElementTree's canonical form, the JSONC
    reading); INI also goes through configparser and CSV needs one column
    count.  A damaged text that this accepts is no damage a tool can see: a
    CSV file cut off inside its header is a table of no records."""
    if not is_valid(fmt, text) or data_reader(fmt)(text) is None:
        return False
    check = _LOADER_CHECKS.get(fmt)
    return check is None or check(text)


def is_corpus_document(fmt: str, text: str) -> bool:
    """Is ``text`` accepted (:func:`accepts`) and, for CSV, a table worth
    damaging: two records or more of two fields or more?"""
    check = _DOCUMENT_CHECKS.get(fmt)
    return accepts(fmt, text) and (check is None or check(text))


# ------------------------------------------------------------------ download


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _deb_spec(package: Package) -> str:
    return package.name if package.version in ("", "*") else f"{package.name}={package.version}"


def _command(package: Package, *, isolated: bool = False) -> list[str]:
    """The download command of ``package``; ``isolated``: an sdist's metadata
    read in a build environment of its own (pip downloads the build backend
    there), for a backend this environment lacks."""
    if package.source == "pypi":
        isolation = [] if isolated else ["--no-build-isolation"]
        return [
            sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
            "--no-binary", ":all:", *isolation,
            f"{package.name}=={package.version}", "-d", ".",
        ]  # fmt: skip
    if package.source == "npm":
        return ["npm", "pack", "--silent", f"{package.name}@{package.version}"]
    if package.source == "deb":
        return ["apt-get", "download", "-q", _deb_spec(package)]
    raise ValueError(f"unknown source {package.source!r}")


def download(package: Package, cache: Path) -> Path:
    """The package's archive in the cache, downloaded unless it is there already."""
    folder = cache / "archives" / package.source / package.key
    found = sorted(p for p in folder.glob("*") if p.is_file()) if folder.exists() else []
    if not found:
        partial = folder.with_name(folder.name + ".partial")
        partial.mkdir(parents=True, exist_ok=True)
        try:
            _run_download(_command(package), partial)
        except subprocess.CalledProcessError:
            if package.source != "pypi":
                raise
            # its build backend (hatchling, flit_core, ...) is not installed here
            _run_download(_command(package, isolated=True), partial)
        partial.rename(folder)
        found = sorted(p for p in folder.glob("*") if p.is_file())
    if len(found) != 1:
        raise RuntimeError(f"{package.key}: expected one archive, found {len(found)}")
    return found[0]


def _run_download(command: list[str], folder: Path) -> None:
    subprocess.run(command, cwd=folder, check=True, capture_output=True, timeout=DOWNLOAD_TIMEOUT_S)


def _batch_command(source: str, packages: Sequence[Package]) -> list[str]:
    if source == "deb":
        return ["apt-get", "download", "-q", *map(_deb_spec, packages)]
    return ["npm", "pack", "--silent", *(f"{p.name}@{p.version}" for p in packages)]


def _batch_archive(package: Package, staging: Path) -> Path | None:
    """The archive that a batch call left for ``package`` in ``staging``, if any.

    apt-get names it ``NAME_VERSION_ARCH.deb``; npm ``NAME-VERSION.tgz``, a
    scoped ``@scope/name`` becoming ``scope-name``."""
    if package.source == "deb":
        return next(iter(sorted(staging.glob(f"{package.name}_*.deb"))), None)
    tarball = staging / f"{package.name.lstrip('@').replace('/', '-')}-{package.version}.tgz"
    return tarball if tarball.is_file() else None


def prefetch(
    packages: Sequence[Package],
    cache: Path,
    *,
    batch: Mapping[str, int] = BATCH,
    run: Callable[..., object] = subprocess.run,
) -> int:
    """Download the Debian and npm archives missing from the cache, many per client call.

    One apt-get call costs seconds whatever it fetches (it reads its package
    lists first), and one ``npm pack`` a second or more of Node's start, so a
    thousand packages one by one take most of an hour, and in batches
    (``batch[source]`` per call) a few minutes.  Each archive lands in its
    package's folder, where :func:`download` finds it.  A batch that fails
    (one name the client cannot find fails the whole call) is left to the
    one-by-one download, which then names the package at fault.  Returns the
    archives placed."""
    placed = 0
    (cache / "archives").mkdir(parents=True, exist_ok=True)
    for source, size in sorted(batch.items()):
        missing = [
            package
            for package in packages
            if package.source == source and not (cache / "archives" / source / package.key).exists()
        ]
        for start in range(0, len(missing), size):
            chunk = missing[start : start + size]
            with tempfile.TemporaryDirectory(prefix="batch-", dir=cache / "archives") as staging:
                try:
                    run(
                        _batch_command(source, chunk),
                        cwd=staging,
                        check=True,
                        capture_output=True,
                        timeout=DOWNLOAD_TIMEOUT_S,
                    )
                except (subprocess.SubprocessError, OSError):
                    continue
                for package in chunk:
                    archive = _batch_archive(package, Path(staging))
                    if archive is not None:
                        folder = cache / "archives" / source / package.key
                        folder.mkdir(parents=True)
                        archive.rename(folder / archive.name)
                        placed += 1
    return placed


def _deb_version(archive: Path) -> str:
    # NAME_VERSION_ARCH.deb, with ':' of an epoch written as %3a
    return archive.name.split("_")[1].replace("%3a", ":")


# ------------------------------------------------------------------ extract


def _members(archive: Path) -> Iterator[tuple[str, bytes]]:
    """(path, bytes) of every regular file of the archive within the size limits."""
    name = archive.name
    if name.endswith(".zip"):
        with zipfile.ZipFile(archive) as zipped:
            for info in zipped.infolist():
                if not info.is_dir() and MIN_BYTES <= info.file_size <= MAX_BYTES:
                    yield info.filename, zipped.read(info)
    elif name.endswith(".deb"):
        with tempfile.TemporaryDirectory(prefix="inputmend-deb-") as folder:
            subprocess.run(["dpkg-deb", "-x", str(archive), folder], check=True)
            for path in sorted(Path(folder).rglob("*")):
                wanted = path.is_file() and not path.is_symlink()
                if wanted and MIN_BYTES <= path.stat().st_size <= MAX_BYTES:
                    yield "/" + path.relative_to(folder).as_posix(), path.read_bytes()
    else:
        with tarfile.open(archive) as tar:
            for member in tar:
                if member.isfile() and MIN_BYTES <= member.size <= MAX_BYTES:
                    handle = tar.extractfile(member)
                    if handle is not None:
                        yield member.name, handle.read()


def _inner_path(path: str, source: str) -> str:
    """The path inside the package, without the archive's top folder."""
    if source == "deb":
        return path
    parts = PurePosixPath(path).parts
    return "/".join(parts[1:]) if len(parts) > 1 else path


def extract(package: Package, archive: Path) -> list[Document]:
    """The package's documents the grammar and the loader accept, at most
    ``PER_PACKAGE`` per format: those with the smallest content hashes (a
    stable choice that does not follow the package's folder order, and lets
    the check stop once enough are found)."""
    candidates: dict[str, dict[str, Document]] = {}
    for path, data in _members(archive):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        inner = _inner_path(path, package.source)
        fmt = classify(inner, text)
        if fmt is not None and "\x00" not in text:
            document = Document(fmt, text, package.source, package.name, package.version, inner)
            candidates.setdefault(fmt, {}).setdefault(document.digest, document)
    kept = []
    for fmt in sorted(candidates):
        found = 0
        for digest in sorted(candidates[fmt]):
            if found == PER_PACKAGE:
                break
            if is_corpus_document(fmt, candidates[fmt][digest].text):
                kept.append(candidates[fmt][digest])
                found += 1
            lex.cache_clear()  # documents are large and read once
    return kept


def extracted(package: Package, cache: Path) -> list[Document]:
    """The package's documents, from the cache when it was extracted before."""
    target = cache / "extracted" / package.source / f"{package.key}.json"
    if target.exists():
        return [Document(**entry) for entry in json.loads(target.read_text(encoding="utf-8"))]
    archive = download(package, cache)
    if package.sha256 and sha256_of(archive) != package.sha256:
        raise RuntimeError(f"{package.key}: sha256 {sha256_of(archive)} != manifest's")
    documents = extract(package, archive)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_suffix(".tmp")
    temporary.write_text(json.dumps([d.__dict__ for d in documents]), encoding="utf-8")
    temporary.replace(target)
    return documents


def _extracted_or_error(package: Package, cache: Path) -> list[Document] | str:
    """:func:`extracted`, or why it failed (in a worker process)."""
    try:
        return extracted(package, cache)
    except (subprocess.SubprocessError, RuntimeError, OSError) as error:
        return _reason(error)


def merge(per_package: Sequence[Sequence[Document]]) -> list[Document]:
    """All documents, each text once (the first package in manifest order keeps it)."""
    seen: set[str] = set()
    merged = []
    for documents in per_package:
        for document in documents:
            if document.digest not in seen:
                seen.add(document.digest)
                merged.append(document)
    return merged


def write_documents(documents: Sequence[Document], path: Path) -> None:
    """Write the corpus so that a reader sees the old file or the new one, never a part.

    The evaluator and other runs may read ``documents.jsonl`` while a fetch
    rewrites it: the lines go to a temporary file beside it, which then
    replaces it in one rename."""
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("w", encoding="utf-8") as handle:
        for document in documents:
            handle.write(json.dumps(document.__dict__, ensure_ascii=False) + "\n")
    temporary.replace(path)


def load_documents(cache: Path | None = None) -> list[Document]:
    """The merged corpus that ``fetch`` wrote."""
    path = (cache or default_cache()) / "documents.jsonl"
    if not path.exists():
        raise FileNotFoundError(f"{path}: run `python -m bench.realcorpus.fetch` first")
    with path.open(encoding="utf-8") as handle:
        return [Document(**json.loads(line)) for line in handle]


def pin(packages: Sequence[Package], cache: Path, jobs: int) -> list[Package]:
    """The packages with their archives' hashes; those that fail to download are dropped."""

    def one(package: Package) -> Package | None:
        try:
            archive = download(package, cache)
        except (subprocess.SubprocessError, RuntimeError, OSError) as error:
            print(f"dropped {package.source}:{package.key}: {_reason(error)}", file=sys.stderr)
            return None
        version = _deb_version(archive) if package.source == "deb" else package.version
        if version != package.version:
            renamed = replace(package, version=version)
            target = cache / "archives" / package.source / renamed.key
            if not target.exists():
                archive.parent.rename(target)
            return replace(renamed, sha256=sha256_of(target / archive.name))
        return replace(package, sha256=package.sha256 or sha256_of(archive))

    prefetch(packages, cache)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return [p for p in pool.map(one, packages) if p is not None]


def _reason(error: BaseException) -> str:
    if isinstance(error, subprocess.CalledProcessError):
        lines = (error.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        return lines[-1] if lines else f"exit {error.returncode}"
    return f"{type(error).__name__}: {error}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=None, help="cache folder")
    parser.add_argument("--jobs", type=int, default=4, help="downloads (and extractions) at a time")
    parser.add_argument("--pin", action="store_true", help="download and pin unpinned packages")
    options = parser.parse_args(argv)
    cache: Path = options.cache or default_cache()
    packages = load_manifest()
    if options.pin:
        write_manifest(pin(packages, cache, options.jobs))
        packages = load_manifest()
    prefetch(packages, cache)
    with ProcessPoolExecutor(max_workers=options.jobs) as pool:
        outcomes = list(pool.map(_extracted_or_error, packages, [cache] * len(packages)))
    results = [documents for documents in outcomes if isinstance(documents, list)]
    failed = 0
    for package, outcome in zip(packages, outcomes, strict=True):
        if isinstance(outcome, str):
            failed += 1
            print(f"skipped {package.source}:{package.key}: {outcome}", file=sys.stderr)
    documents = merge(results)
    write_documents(documents, cache / "documents.jsonl")
    counts = {fmt: sum(d.format == fmt for d in documents) for fmt in FORMATS}
    sources = {fmt: len({d.package for d in documents if d.format == fmt}) for fmt in FORMATS}
    print(f"{len(packages) - failed} packages, {failed} skipped; documents by format:")
    for fmt in FORMATS:
        print(f"  {fmt:6} {counts[fmt]:6d} from {sources[fmt]} packages")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
