"""The message catalogues' tools: ``./dev i18n-extract`` rebuilds the template
(``ui/locales/messages.pot``) from the code and the slash commands and brings every language's
``.po`` up to date with it; ``./dev i18n-check`` runs the catalogue checks.
"""
