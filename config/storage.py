"""Static files in production: minified, hashed names, compressed, and ES modules that
import the hashed names of their modules.

Without the rewrite, ``room.js`` (hashed, cached for a year) would import ``./dom.js`` by
its plain name, so for a while after an upgrade a browser could run the new page with an
old module, or the reverse. Django rewrites ``import … from "./x.js"`` (and ``import()``
of a literal path) when asked to; the game modules the page loads by URL get their
hashed URLs from the server (``{% static %}``).

Minifying (comments and spaces out, nothing renamed) keeps a room page within its 100 KB
(tests/rooms/test_page_weight.py): a quarter of the scripts and styles is indentation
and the comments that explain them. The sources stay as written; only the collected
copies are minified, before they are hashed, so a hash names the bytes served.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import PurePosixPath
from typing import Any

import rcssmin
import rjsmin
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

MINIFIERS: dict[str, Callable[[str], str]] = {
    ".js": lambda text: rjsmin.jsmin(text, keep_bang_comments=True),
    ".css": lambda text: rcssmin.cssmin(text, keep_bang_comments=True),
}


class StaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True

    def post_process(self, paths: dict[str, Any], dry_run: bool = False, **options: Any) -> Iterator[Any]:
        if not dry_run:
            paths = self._minify(paths)
        yield from super().post_process(paths, dry_run, **options)

    def _minify(self, paths: dict[str, Any]) -> dict[str, Any]:
        """The collected copy of each script and stylesheet, minified; hashing then reads it."""
        minified = dict(paths)
        for path, (storage, source) in paths.items():
            minify = MINIFIERS.get(PurePosixPath(path).suffix)
            if minify is None:
                continue
            with storage.open(source) as original:
                text = original.read().decode("utf-8")
            if self.exists(path):
                self.delete(path)
            self._save(path, ContentFile(minify(text).encode("utf-8")))
            minified[path] = (self, path)
        return minified
