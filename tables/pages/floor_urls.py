"""The pit boss's routes, under /floor/."""

from django.urls import path

from tables.pages import floor, floor_table

urlpatterns = [
    path("floor/", floor.floor_home, name="floor"),
    path("floor/tiles/", floor.floor_tiles_fragment, name="floor-tiles"),
    path("floor/tiles/<int:table_id>/", floor.floor_tile_fragment, name="floor-tile"),
    path("floor/lists/", floor.floor_lists_fragment, name="floor-lists"),
    path(
        "floor/approvals/<str:kind>/<int:approval_id>/",
        floor.floor_decide,
        name="floor-decide",
    ),
    path(
        "floor/alerts/<int:alert_id>/acknowledge/",
        floor.floor_acknowledge,
        name="floor-acknowledge",
    ),
    path("floor/tables/<int:table_id>/", floor_table.floor_table, name="floor-table"),
    path(
        "floor/tables/<int:table_id>/live/",
        floor_table.floor_table_fragment,
        name="floor-table-fragment",
    ),
    path(
        "floor/tables/<int:table_id>/<str:action>/",
        floor_table.floor_table_act,
        name="floor-table-act",
    ),
]
