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
