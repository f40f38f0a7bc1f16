// Web app: the UI theme from the account's stored preferences (a JSON column). Accounts made
// before preferences existed have NULL there; the block already has defaults for each field.

export const scenario = {
  id: 'theme-preferences-null',
  title: 'JSON.parse(null) is null: reading a field of it',
  entry: 'uiSettings',
  healthy: [
    [{ id: 10, preferences: '{"theme":"dark","density":"compact"}' }],
    [{ id: 11, preferences: '{"theme":"dark"}' }],
    [{ id: 12, preferences: '{}' }],
  ],
  failing: [
    [{ id: 13, preferences: null }],
  ],
  hidden: [
    [{ id: 14, preferences: null }],
    [{ id: 15, preferences: '{"density":"compact"}' }],
    [{ id: 16, preferences: 'null' }],
  ],
};

export function createApp(repair) {
  function uiSettings(account) {
    const prefs = JSON.parse(account.preferences);
    return { theme: prefs.theme || 'light', density: prefs.density || 'comfortable' };
  }
  return { uiSettings: (account) => repair.run('ui-settings', 'Theme and density of the account\'s UI, defaults light and comfortable', uiSettings, account) };
}

export function intended(account) {
  const prefs = JSON.parse(account.preferences) ?? {};
  return { theme: prefs.theme || 'light', density: prefs.density || 'comfortable' };
}
