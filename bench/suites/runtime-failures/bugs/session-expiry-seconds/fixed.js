function checkSession(token, nowMs) {
  const expiresAtMs = new Date(token.exp * 1000).getTime();
  if (Number.isNaN(expiresAtMs) || expiresAtMs <= nowMs) {
    return { valid: false, reason: 'expired' };
  }
  return { valid: true, userId: token.sub, scopes: token.scope.split(' '), remainingMs: expiresAtMs - nowMs };
}
