"""The account's own pages: what it can do, the download of its data, and closing it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from core.errors import RuleViolation
from league.accounts import deletion, download
from league.accounts.forms import DeleteAccountForm
from league.accounts.permissions import own_account


@require_GET
def account(request: HttpRequest) -> HttpResponse:
    user = own_account(request)
    return render(request, "league/account_detail.html", {"account": user})


@require_GET
def account_download(request: HttpRequest) -> HttpResponse:
    """One JSON file of the account's own data (``download``); private like every answer."""
    user = own_account(request)
    response = JsonResponse(download.account_data(user), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = 'attachment; filename="mordheim-account.json"'
    return response


@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    """Asks first: what will happen, a choice for each warband still playing, the password
    and a box to tick. Refused, nothing changes and the page says why beside the field."""
    user = own_account(request)
    plan = deletion.plan_for(user)
    posted = request.method == "POST"
    form = DeleteAccountForm(request.POST if posted else None, user=user, plan=plan)
    if posted and not plan.blocking and form.is_valid():
        try:
            deletion.delete_account(user, choices=form.choices())
        except RuleViolation as refusal:
            form.add_error(None, str(refusal))
        else:
            logout(request)
            messages.success(request, "Your account is closed. Farewell, and good fortune.")
            return redirect("login")
    context = {
        "form": form,
        "plan": plan,
        "refusal": deletion.blocking_refusal(plan.blocking) if plan.blocking else "",
    }
    status = 422 if posted else 200
    return render(request, "league/account_delete.html", context, status=status)
