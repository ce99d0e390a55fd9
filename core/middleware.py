"""Login required everywhere, answered in a way htmx understands."""

from django.contrib.auth import middleware as auth_middleware
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import resolve_url
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
