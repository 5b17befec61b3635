"""Settings from the environment and an optional .env file."""

from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = f"sqlite:///{PROJECT_ROOT / 'inference_atlas.db'}"
    seed_dir: Path = PROJECT_ROOT / "seed"
    site_name: str = "Inference Atlas"
    access_log: bool = True
    # Host names this instance answers to (comma-separated; `*` for any). Links and
    # redirects are built from the Host header, so an unchecked one would be reflected.
    trusted_hosts: str = "localhost,127.0.0.1,::1"
    # Worker threads for database work and rendering; the connection pool matches it.
    threads: int = 16
    # Responses built at once (the rest queue): bounds the memory big pages take together.
    builds: int = 4
    render_cache_mb: int = 64
    max_query_bytes: int = 8192
    # How long a SQLite writer waits for another one before giving up with a clear message.
    sqlite_busy_timeout_ms: int = 10_000

    def engine_options(self) -> dict[str, int]:
        return {"pool_size": self.threads, "busy_timeout_ms": self.sqlite_busy_timeout_ms}

    def trusted_host_list(self) -> list[str]:
        return [h.strip() for h in self.trusted_hosts.split(",") if h.strip()]
