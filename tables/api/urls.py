"""The table API's routes."""

from django.urls import path

from tables.api import views_review as review
from tables.api import views_roles as role_grants
from tables.api import views_seating as seating
from tables.api import views_tables as tables
from tables.api.views_games import game_routes
from tables.api.views_me import MeView

urlpatterns = [
    # First: the dealers' commands are most of the API's requests.
    *game_routes(),
    path("me", MeView.as_view(), name="me"),
    path("tables", tables.TableListView.as_view(), name="tables"),
    path("tables/<int:table_id>", tables.TableDetailView.as_view(), name="table"),
    path("tables/<int:table_id>/open", tables.TableOpenView.as_view(), name="table-open"),
    path("tables/<int:table_id>/close", tables.TableCloseView.as_view(), name="table-close"),
    path("tables/<int:table_id>/dealer", tables.TableDealerView.as_view(), name="table-dealer"),
    path("tables/<int:table_id>/rounds", tables.RoundOpenView.as_view(), name="round-open"),
    path("tables/<int:table_id>/rounds/close", tables.RoundCloseView.as_view(), name="round-close"),
    path("tables/<int:table_id>/commands", tables.TableCommandView.as_view(), name="commands"),
    path("tables/<int:table_id>/events", tables.TableEventsView.as_view(), name="events"),
    path(
        "tables/<int:table_id>/rounds/<int:number>",
        tables.RoundAuditView.as_view(),
        name="round-audit",
    ),
    path("tables/<int:table_id>/seats/sit", seating.SeatPlayerView.as_view(), name="seat-sit"),
    path("tables/<int:table_id>/seats/chips", seating.AddChipsView.as_view(), name="seat-chips"),
    path("tables/<int:table_id>/seats/leave", seating.LeaveView.as_view(), name="seat-leave"),
    path(
        "tables/<int:table_id>/corrections",
        review.CorrectionCreateView.as_view(),
        name="correction-create",
    ),
    path("corrections", review.CorrectionListView.as_view(), name="corrections"),
    path(
        "corrections/<int:correction_id>/approve",
        review.CorrectionApproveView.as_view(),
        name="correction-approve",
    ),
    path(
        "corrections/<int:correction_id>/refuse",
        review.CorrectionRefuseView.as_view(),
        name="correction-refuse",
    ),
    path("alerts", review.AlertListView.as_view(), name="alerts"),
    path(
        "alerts/<int:alert_id>/acknowledge",
        review.AlertAcknowledgeView.as_view(),
        name="alert-acknowledge",
    ),
    path("role-grants", role_grants.RoleGrantListView.as_view(), name="role-grants"),
    path(
        "role-grants/<int:grant_id>/approve",
        role_grants.RoleGrantApproveView.as_view(),
        name="role-grant-approve",
    ),
    path(
        "role-grants/<int:grant_id>/refuse",
        role_grants.RoleGrantRefuseView.as_view(),
        name="role-grant-refuse",
    ),
]
