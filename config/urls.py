from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog, set_language

urlpatterns = [
    path("i18n/setlang/", set_language, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
    path("", include("rooms.urls")),
]

handler404 = "rooms.views.not_found"
