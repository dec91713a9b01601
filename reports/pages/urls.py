"""The cashier's and the auditor's routes, under /cage/ and /audit/."""

from django.urls import path

from reports.pages import audit, cage

urlpatterns = [
    path("cage/", cage.cage_home, name="cage"),
    path("cage/counter/", cage.cage_fragment, name="cage-counter"),
    path("cage/slips/<str:slip_type>/<int:number>/", cage.cage_sign, name="cage-sign"),
    path("audit/", audit.audit_home, name="audit"),
    path("audit/renderings/<int:rendering_id>/", audit.audit_download, name="audit-download"),
    path("audit/rounds/", audit.audit_round_lookup, name="audit-round-lookup"),
    path("audit/tables/<int:table_id>/verify/", audit.audit_verify, name="audit-verify"),
    path("audit/tables/<int:table_id>/rounds/<int:number>/", audit.audit_round, name="audit-round"),
]
