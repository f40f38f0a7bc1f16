import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactSecrets } from '../../engine/generators/llm/secret-redaction.ts';

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

test('bearer tokens keep the scheme and lose the credential', () => {
  assert.equal(redactSecrets('Authorization: Bearer abc.def-ghi_jkl~123'), 'Authorization: Bearer [REDACTED]');
  assert.equal(redactSecrets('"authorization":"bearer 0123456789abcdef"'), '"authorization":"bearer [REDACTED]"');
  assert.equal(redactSecrets('Basic dXNlcjpwYXNzd29yZA=='), 'Basic [REDACTED]');
});

test('JWT-shaped strings are redacted wherever they sit', () => {
  assert.equal(redactSecrets(`token=${JWT}&x=1`), 'token=[REDACTED]&x=1');
  assert.equal(redactSecrets(`{"session":"${JWT}"}`), '{"session":"[REDACTED]"}');
  assert.equal(redactSecrets(`Bearer ${JWT}`), 'Bearer [REDACTED]');
});

test('sk- keys and other well-known key shapes are redacted', () => {
  assert.equal(redactSecrets('const key = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx_yz-0123";'), 'const key = "[REDACTED]";');
  assert.equal(redactSecrets('sk-ant-api03-aaaaaaaaaaaaaaaaaaaaaaaa'), '[REDACTED]');
  assert.equal(redactSecrets('ghp_abcdefghijklmnopqrstuvwxyz0123456789'), '[REDACTED]');
  assert.equal(redactSecrets('AKIAIOSFODNN7EXAMPLE'), '[REDACTED]');
  assert.equal(redactSecrets('-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----'), '[REDACTED]');
});

test('ordinary code and data are left alone', () => {
  const code = 'function total(items) { const task = "sk-1"; return items.reduce((s, x) => s + x.price, 0); } // Bearer';
  assert.equal(redactSecrets(code), code);
  assert.equal(redactSecrets('{"price":42,"sku":"eyJ"}'), '{"price":42,"sku":"eyJ"}');
  const prose = '// Bearer authentication first, then Basic validation of the token string';
  assert.equal(redactSecrets(prose), prose);
  assert.equal(redactSecrets('desk-lamp-with-a-long-name-here'), 'desk-lamp-with-a-long-name-here');
});
