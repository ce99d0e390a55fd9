"""Authentication backend that keeps the demo accounts local."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError
from django.db import connection
from django.shortcuts import render

#: The password `seed_demo` gives its demo accounts. It is printed by `make run`, so it is public:
#: with DEBUG off nobody may log in with it, whatever the account.
DEMO_PASSWORD = "mordheim-demo"


class DemoPasswordRefusingBackend(ModelBackend):
    """Django's model backend, refusing the public demo password unless DEBUG is on."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if password == DEMO_PASSWORD and not settings.DEBUG:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)

    def get_user(self, user_id):
        """As Django's (the active user with this primary key, or None), read with one
        hand-written statement: every logged-in request reads its user, and building the ORM's
        query costs Django more than PostgreSQL takes to answer it (issue 10)."""
        model = get_user_model()
        try:
            pk = model._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        fields = model._meta.concrete_fields
        quote = connection.ops.quote_name
        columns = ", ".join(quote(f.column) for f in fields)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {columns} FROM {quote(model._meta.db_table)}"
                f" WHERE {quote(model._meta.pk.column)} = %s",
                [pk],
            )
            row = cursor.fetchone()
        if row is None:
            return None
        row = [f.from_db_value(v, None, connection) if hasattr(f, "from_db_value") else v
               for f, v in zip(fields, row, strict=True)]  # fmt: skip
        user = model.from_db(connection.alias, [f.attname for f in fields], row)
        return user if self.user_can_authenticate(user) else None


def locked_out(request, response=None, credentials=None):
    """django-axes' answer to a locked-out log-in: our page, status 429 (Too Many Requests)."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "registration/locked_out.html", {"minutes": minutes}, status=429)
