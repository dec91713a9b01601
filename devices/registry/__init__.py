"""The device registry's services: enrolment, four-eyes bindings, retirement, alerts, holds."""
