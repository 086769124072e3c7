# The Menagerie server, as docker-compose.yml runs it (with PostgreSQL).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/menagerie
COPY pyproject.toml README.md LICENSE alembic.ini ./
COPY engine ./engine
COPY app ./app
COPY migrations ./migrations
COPY static ./static
COPY docs ./docs
RUN pip install . \
    && useradd --system --uid 10001 --home-dir /srv/menagerie menagerie

# the app is installed into site-packages: point it at the migrations and the client
ENV MENAGERIE_MIGRATIONS=/srv/menagerie/migrations \
    MENAGERIE_STATIC_DIR=/srv/menagerie/static

USER menagerie
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"
CMD ["menagerie", "serve", "--host", "0.0.0.0", "--port", "8000"]
