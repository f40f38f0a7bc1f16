// API gateway: the bearer token of a request, or null. Health checks and browsers on the public
// pages send no Authorization header at all.

export const scenario = {
  id: 'bearer-token-missing-header',
  title: 'request without an Authorization header (split of undefined)',
  entry: 'bearerToken',
  healthy: [
    [{ method: 'GET', path: '/v1/me', headers: { authorization: 'Bearer abc.def.ghi' } }],
    [{ method: 'GET', path: '/v1/me', headers: { authorization: 'Basic dXNlcjpwdw==' } }],
    [{ method: 'POST', path: '/v1/orders', headers: { authorization: 'Bearer t0k3n', 'content-type': 'application/json' } }],
    [{ method: 'GET', path: '/v1/me', headers: { authorization: 'Bearer' } }],
  ],
  failing: [
    [{ method: 'GET', path: '/healthz', headers: {} }],
  ],
  hidden: [
    [{ method: 'GET', path: '/', headers: { accept: 'text/html' } }],
    [{ method: 'GET', path: '/v1/me', headers: { authorization: 'Bearer xyz' } }],
    [{ method: 'HEAD', path: '/favicon.ico', headers: { 'user-agent': 'curl/8' } }],
  ],
};

export function createApp(repair) {
  const bearerToken = repair.wrap('bearer-token', 'The bearer token of the request, or null when it has none', (req) => {
    const [scheme, token] = req.headers.authorization.split(' ');
    return scheme === 'Bearer' && token ? token : null;
  });
  return { bearerToken };
}

export function intended(req) {
  if (!req.headers.authorization) return null;
  const [scheme, token] = req.headers.authorization.split(' ');
  return scheme === 'Bearer' && token ? token : null;
}
