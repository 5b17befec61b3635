"""The inference-atlas command, one module per group of commands: server.py (serve,
migrate, seed, check), backup.py (export, import), results.py (import-results,
export-llmd-report), accounts.py (user, token); common.py holds what they share.

Every command is registered here, in one list, so the order `inference-atlas --help` shows
them in is written down in one place rather than following the order of imports.
"""

import typer

from app.cli import accounts, backup, results, server

cli = typer.Typer(help="Inference Atlas: choose an LLM inference server from sourced data.")
users = typer.Typer(help="Who can sign in, and with which role (viewer, editor, admin).")
tokens = typer.Typer(help="API tokens for scripts (Authorization: Bearer TOKEN).")
cli.add_typer(users, name="user")
cli.add_typer(tokens, name="token")

cli.command()(server.serve)
cli.command("prepare-to-serve", hidden=True)(server.prepare_to_serve)
cli.command()(server.migrate)
cli.command()(server.seed)
cli.command()(server.check)
cli.command()(backup.export)
cli.command("import")(backup.restore)
cli.command("import-results")(results.import_results)
cli.command("export-llmd-report")(results.export_llmd_report)
users.command("add")(accounts.user_add)
users.command("list")(accounts.user_list)
users.command("set-role")(accounts.user_set_role)
users.command("disable")(accounts.user_disable)
users.command("enable")(accounts.user_enable)
users.command("set-password")(accounts.user_set_password)
tokens.command("add")(accounts.token_add)
tokens.command("list")(accounts.token_list)
tokens.command("revoke")(accounts.token_revoke)


def main() -> None:
    cli()
