"""Static files in production: hashed names, compressed, and ES modules that import the
hashed names of their modules.

Without the rewrite, ``room.js`` (hashed, cached for a year) would import ``./dom.js`` by
its plain name, so for a while after an upgrade a browser could run the new page with an
old module, or the reverse. Django rewrites ``import … from "./x.js"`` (and ``import()``
of a literal path) when asked to; the game modules the page loads by URL get their
hashed URLs from the server (``{% static %}``).
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
