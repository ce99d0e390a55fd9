"""The account's part of the URL matrix (``tests/test_url_matrix.py``): its pages name no
account, so every logged-in user is served his own; a plain post to close it, without the
password and the box, is refused on the page (422) and changes nothing."""

MATRIX = {
    "account": ("LOOOO", "LMMMM"),
    "account_download": ("LOOOO", "LMMMM"),
    "account_delete": ("LOOOO", "LOOOO"),
}
