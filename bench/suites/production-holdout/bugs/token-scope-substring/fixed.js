function hasScope(token, required) {
  if (!token || !token.scope) return false;
  return token.scope.split(' ').includes(required);
}
