"""Counts each request's SQL statements for the load generator (``X-Queries``)."""

from django.db import connection


class QueryCountMiddleware:
    """Benchmark only (``MORDHEIM_BENCH=1`` puts it first in ``MIDDLEWARE``): counts the SQL
    statements a request runs, from the session lookup to the last template tag, and sends the
    number as ``X-Queries`` for the load generator to report. Off in every other setting."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        count = 0

        def counter(execute, sql, params, many, context):
            nonlocal count
            count += 1
            return execute(sql, params, many, context)

        with connection.execute_wrapper(counter):
            response = self.get_response(request)
        response["X-Queries"] = str(count)
        return response
