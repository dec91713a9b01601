"""The reports API's routes, under /api/reports/."""

from django.urls import path

from reports.api import views_custody as custody
from reports.api import views_reports as reports
from reports.api import views_slips as slips

urlpatterns = [
    path("", reports.ReportListView.as_view(), name="reports"),
    path("<int:report_id>", reports.ReportDetailView.as_view(), name="report"),
    path(
        "<int:report_id>/download/<str:fmt>",
        reports.ReportDownloadView.as_view(),
        name="report-download",
    ),
    path("runs", reports.RunCreateView.as_view(), name="report-runs"),
    path("runs/<uuid:run_id>", reports.RunDetailView.as_view(), name="report-run"),
    path("tables/<int:table_id>/custody", custody.CustodyView.as_view(), name="custody"),
    path("tables/<int:table_id>/opener", custody.OpenerView.as_view(), name="custody-opener"),
    path("tables/<int:table_id>/closer", custody.CloserView.as_view(), name="custody-closer"),
    path(
        "tables/<int:table_id>/opener/confirm",
        custody.OpenerConfirmView.as_view(),
        name="custody-opener-confirm",
    ),
    path(
        "tables/<int:table_id>/closer/confirm",
        custody.CloserConfirmView.as_view(),
        name="custody-closer-confirm",
    ),
    path(
        "tables/<int:table_id>/fills",
        slips.SlipRequestView.as_view(slip_type="fill"),
        name="custody-fills",
    ),
    path(
        "tables/<int:table_id>/credits",
        slips.SlipRequestView.as_view(slip_type="credit"),
        name="custody-credits",
    ),
    path("tables/<int:table_id>/buy-ins", custody.BuyInView.as_view(), name="custody-buy-ins"),
    path("tables/<int:table_id>/drop", custody.DropView.as_view(), name="custody-drop"),
    path(
        "slips/fill/<int:number>/issue",
        slips.SlipCageView.as_view(slip_type="fill"),
        name="custody-fill-issue",
    ),
    path(
        "slips/credit/<int:number>/receive",
        slips.SlipCageView.as_view(slip_type="credit"),
        name="custody-credit-receive",
    ),
    path(
        "slips/<str:slip_type>/<int:number>/confirm",
        slips.SlipConfirmView.as_view(),
        name="custody-slip-confirm",
    ),
    path(
        "slips/<str:slip_type>/<int:number>/void",
        slips.SlipVoidView.as_view(),
        name="custody-slip-void",
    ),
    path("cage-figures", slips.CageFiguresView.as_view(), name="cage-figures"),
]
