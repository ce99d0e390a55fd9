"""Login required everywhere, answered in a way htmx understands; no answer kept by a cache
unless its view says it may be."""

from django.contrib.auth import middleware as auth_middleware
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import resolve_url
from django.utils.cache import patch_vary_headers
from django_htmx.http import HttpResponseClientRedirect


class LoginRequiredMiddleware(auth_middleware.LoginRequiredMiddleware):
    """Django's LoginRequiredMiddleware: every view needs a login unless it is decorated with
    ``@login_not_required``, so a new view is private by default.

    Two changes to Django's own:
    - a view marked ``@login_not_required`` is let through before ``request.user`` is looked at,
      so such views (``/healthz``) never load a session or a user from the database;
    - an htmx request is not answered with a 302 (the browser would follow it and swap the login
      form into some fragment) but with ``HX-Redirect``, so the whole page goes to the login page
      with ``?next=`` pointing at the page the user was on.
    """

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not getattr(view_func, "login_required", True):
            return None
        return super().process_view(request, view_func, view_args, view_kwargs)

    def handle_no_permission(self, request, view_func):
        if getattr(request, "htmx", False):
            current = request.htmx.current_url_abs_path or request.get_full_path()
            login_url = resolve_url(self.get_login_url(view_func))
            return HttpResponseClientRedirect(redirect_to_login(current, login_url)["Location"])
        return super().handle_no_permission(request, view_func)


class PrivateAnswersMiddleware:
    """Every answer the app's views give is ``Cache-Control: private, no-store`` unless the view
    set a ``Cache-Control`` of its own, and every one varies on ``Cookie`` and ``HX-Request``.

    Nearly every page and partial shows something that belongs to the user who asked: a
    treasury, a post-battle step, a roster with its containers, a dashboard, a form with its
    one-time token. Marking them one by one would be forgotten on the next view, so the rule is
    here, for all of them: no browser history, shared proxy or page cache may keep an answer.
    A view that chooses otherwise sets its own header (``@cache_control(max_age=...)`` for an
    answer that may be kept, ``@never_cache``), and this leaves it alone. The ``Vary`` headers
    go on every answer, the views' own choices included, so that whatever does keep an answer
    keeps it per session cookie and apart from its htmx partial. Static files never reach it:
    whitenoise answers them first.

    It sits high in ``MIDDLEWARE`` so that it also marks what the layers under it answer
    without a view: ``core.once``'s replay of a form posted twice, the CSRF refusal, the log-in
    redirect and axes' lockout page.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not response.has_header("Cache-Control"):
            response["Cache-Control"] = "private, no-store"
        patch_vary_headers(response, ("Cookie", "HX-Request"))
        return response
