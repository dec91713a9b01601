# The two commands a newcomer needs are `make run` and `make test`; the rest serve them.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# The default run leaves out the long soak and statistical tests; CI runs them all (.ci/run).
PYTEST_ARGS ?= -m "not slow"
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: run test lint types migrations-check pytest worker beat clean serve

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@ $(VENV)/.runtime

run: $(VENV)/.runtime
	$(BIN)/python manage.py migrate --noinput -v 0
	$(BIN)/python manage.py seed_demo
	@echo "Screens:   http://127.0.0.1:$(PORT)/login/   (the dealer's tablet: dealer1 / dealer1-demo)"
	@echo "API docs:  http://127.0.0.1:$(PORT)/api/docs/"
	@echo "Schema:    http://127.0.0.1:$(PORT)/api/schema/"
	@echo "Health:    http://127.0.0.1:$(PORT)/api/health"
	@echo "Admin:     http://127.0.0.1:$(PORT)/admin/   (log in as admin1 / admin1-demo)"
	$(BIN)/python manage.py serve_demo 127.0.0.1:$(PORT) $(SERVE_DEMO_ARGS)

test: $(VENV)/.dev lint types migrations-check pytest

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

types: $(VENV)/.dev
	$(BIN)/mypy .

migrations-check: $(VENV)/.dev
	$(BIN)/python manage.py makemigrations --check --dry-run

pytest: $(VENV)/.dev
	$(BIN)/pytest $(PYTEST_ARGS)

worker: $(VENV)/.runtime
	$(BIN)/celery -A casino worker -Q default,reports -l info

beat: $(VENV)/.runtime
	$(BIN)/celery -A casino beat -l info --schedule var/celerybeat-schedule

# The production server: gunicorn supervising uvicorn workers (HTTP and websockets) on
# casino.asgi, production settings (PostgreSQL and Redis required), static files collected for
# WhiteNoise. CASINO_BIND (default 127.0.0.1:8000) and WEB_CONCURRENCY set where and how many.
serve: $(VENV)/.runtime
	@test -n "$$DATABASE_URL" || { echo "make serve needs DATABASE_URL=postgres://..."; exit 2; }
	@test -n "$$REDIS_URL" || { echo "make serve needs REDIS_URL=redis://..."; exit 2; }
	CASINO_ENV=production $(BIN)/python manage.py migrate --noinput -v 0
	CASINO_ENV=production $(BIN)/python manage.py collectstatic --noinput -v 0
	CASINO_ENV=production exec $(BIN)/gunicorn casino.asgi:application -c casino/gunicorn_conf.py

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache .hypothesis
