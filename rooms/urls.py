from django.urls import path

from rooms import views

urlpatterns = [
    path("", views.home, name="home"),
    path("go/", views.go, name="go"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("design/", views.design, name="design"),
    path("how-to-play/<str:game>/", views.howto, name="howto"),
    path("new/", views.new_room, name="new_room"),
    path("r/<str:slug>/", views.room, name="room"),
    path("r/<str:slug>/table/", views.table, name="table"),
    path("r/<str:slug>/join/", views.join, name="join"),
    path("r/<str:slug>/games/", views.games, name="games"),
    path("r/<str:slug>/games/<int:ordinal>/", views.replay, name="replay"),
    path("r/<str:slug>/games/<int:ordinal>.json", views.export, name="export"),
    path("r/<str:slug>/device/<str:token>/", views.device, name="device"),
    path("r/<str:slug>/device.svg", views.device_qr, name="device_qr"),
]
