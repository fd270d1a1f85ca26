from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language

from rooms.catalogue import CataloguePart

urlpatterns = [
    path("i18n/setlang/", set_language, name="set_language"),
    # The browser's translations: the site's part, and each game's with its script.
    path("jsi18n/", CataloguePart.as_view(), name="javascript-catalog"),
    path("jsi18n/<slug:game>/", CataloguePart.as_view(), name="javascript-catalog-game"),
    path("admin/", admin.site.urls),
    path("", include("rooms.urls")),
]

handler404 = "rooms.views.not_found"
