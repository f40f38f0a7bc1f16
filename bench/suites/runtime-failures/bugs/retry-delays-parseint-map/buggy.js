function parseRetryPolicy(headers) {
  const max = headers['x-retry-max'] === undefined ? 3 : parseInt(headers['x-retry-max'], 10);
  const raw = headers['x-retry-delays'] || '';
  const delays = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(parseInt)
    .filter((ms) => ms >= 0);
  return { max, delays: delays.slice(0, max) };
}
