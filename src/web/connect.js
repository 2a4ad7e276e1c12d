// The connect page: an end user of one of our customers connects a SaaS account to the customer's workspace.
// It runs under a CSP without 'unsafe-inline' or eval, so the DOM is built with createElement/textContent,
// never innerHTML: API data (template names, error messages) is only ever shown as text.

const TOKEN_KEY = 'ces-connect-token';
const PENDING_KEY = 'ces-connect-pending';
const RESULT_TYPE = 'ces-oauth-result';
const POPUP = ['ces-oauth', 'popup,width=600,height=700'];
const EXPIRED = 'This link has expired; reopen it from the application.';
const NO_TOKEN =
  'This page has to be opened from the application you are connecting to. Go back to it and try again.';
const WAITING = 'Continue in the sign-in window. If you closed it, you can start again.';

const byId = (id) => document.getElementById(id);
const ui = {
  alert: byId('alert'),
  status: byId('status'),
  steps: { list: byId('step-list'), form: byId('step-form'), done: byId('done') },
  templates: byId('templates'),
  noTemplates: byId('no-templates'),
  formTitle: byId('form-title'),
  form: byId('form'),
  options: byId('options'),
  optionList: byId('option-list'),
  fields: byId('fields'),
  connectionName: byId('connection-name'),
  actions: byId('actions'),
  doneTitle: byId('done-title'),
  doneDetail: byId('done-detail'),
};

// inputs: [{group: 'credentials'|'environment', key, input, secret}] of the option on screen.
// flow: the OAuth flow waiting for its result ({template, nonce}), or null.
const state = { token: null, session: null, template: null, option: null, inputs: [], flow: null };

// A second route for the OAuth result: a provider's Cross-Origin-Opener-Policy can cut the popup's link to
// window.opener, and then only a same-origin channel reaches the page that started the flow. Any page can open
// /connect/oauth-done with a made-up result, though, so a result counts only with the flow's own nonce.
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('ces-connect-oauth') : null;

function attempt(fn, fallback = null) {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

// sessionStorage throws where storage is blocked (some sandboxed or third-party frames); the page then still
// works, only a navigation in this tab loses the token.
const storage = {
  get: (key) => attempt(() => sessionStorage.getItem(key)),
  set: (key, value) => attempt(() => sessionStorage.setItem(key, value)),
  remove: (key) => attempt(() => sessionStorage.removeItem(key)),
};

// ---- API ----

const apiError = (status, code, message, errors = []) =>
  Object.assign(new Error(message), { status, code, errors });

async function api(method, path, body) {
  const headers = { Authorization: `Bearer ${state.token}` };
  if (body) headers['Content-Type'] = 'application/json';
  const init = {
    method,
    headers,
    body: body && JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
  };
  const res = await fetch(path, init).catch(() => null);
  if (!res)
    throw apiError(0, 'NETWORK_ERROR', 'Could not reach the server. Check your connection and try again.');
  const data = await res.json().catch(() => null);
  if (res.ok && data) return data;
  const code = data?.code || `HTTP_${res.status}`;
  if (res.status === 401) throw apiError(401, code, EXPIRED);
  const message = data?.message || `Something went wrong (HTTP ${res.status}). Please try again.`;
  throw apiError(res.status, code, message, Array.isArray(data?.errors) ? data.errors : []);
}

// ---- DOM and messages ----

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === true) node.setAttribute(name, '');
    else if (value !== false && value != null && value !== '') node.setAttribute(name, String(value));
  }
  // append() turns strings into text nodes, so API text is never parsed as HTML.
  node.append(...children.filter((child) => child != null && child !== ''));
  return node;
}

function showStep(name) {
  for (const [key, section] of Object.entries(ui.steps)) section.hidden = key !== name;
  // Keyboard and screen-reader users start each step at its heading.
  ui.steps[name]?.querySelector('h2')?.focus();
}

function showStatus(text, tone) {
  ui.status.textContent = text || '';
  ui.status.dataset.tone = tone || '';
}

function showAlert(text, details = []) {
  ui.alert.replaceChildren();
  if (text) ui.alert.append(el('p', null, text));
  if (details.length) ui.alert.append(el('ul', null, ...details.map((d) => el('li', null, d))));
}

function clearMessages() {
  showAlert('');
  showStatus('');
  // Every input has an (empty) error paragraph in its aria-describedby, so clearing is just emptying it.
  for (const node of ui.form.querySelectorAll('.field-error')) node.textContent = '';
  for (const input of ui.form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
}

function fatal(text) {
  showStep(null);
  showStatus('');
  showAlert(text);
}

function inputForField(field) {
  if (field === 'name') return ui.connectionName;
  const [group, ...rest] = String(field || '').split('.');
  const key = rest.join('.');
  return state.inputs.find((i) => i.group === group && i.key === key)?.input || null;
}

function showError(err) {
  if (err.status === 401) {
    storage.remove(TOKEN_KEY);
    return fatal(EXPIRED);
  }
  const unmatched = [];
  let first = null;
  for (const item of err.errors || []) {
    const input = inputForField(item.field);
    const message = String(item.message || 'This value is not valid.');
    if (!input) {
      unmatched.push(message);
      continue;
    }
    byId(`${input.id}-error`).append(message, ' ');
    input.setAttribute('aria-invalid', 'true');
    first ||= input;
  }
  showAlert(err.message, unmatched);
  first?.focus();
}

// ---- Outcome ----

function notifyHost(event) {
  const host = window.parent !== window ? window.parent : window.opener;
  // Never '*': the connector record may reach only the customer's own origin. A malformed allowed_origin
  // makes postMessage throw, and then there is no safe target at all.
  if (host && state.session) attempt(() => host.postMessage(event, state.session.allowed_origin));
}

function succeed(record, template) {
  storage.remove(PENDING_KEY);
  clearMessages();
  ui.doneTitle.textContent = `${template?.name || record.name || 'Your account'} is connected`;
  ui.doneDetail.textContent = record.name ? `It is saved as “${record.name}”.` : '';
  showStep('done');
  notifyHost({ type: 'end_user_action_result', message: 'source_created', data: record });
}

function fail(err) {
  showStatus('');
  showError(err);
  const error = { code: err.code, message: err.message };
  notifyHost({ type: 'end_user_action_result', message: 'source_create_error', error });
}

// ---- Step 1: templates ----

function renderTemplates() {
  const templates = state.session.templates || [];
  const items = templates.map((template) => {
    const icon = template.icon_url ? el('img', { src: template.icon_url, alt: '', class: 'icon' }) : null;
    icon?.addEventListener('error', () => icon.remove());
    const attrs = { type: 'button', class: 'template', 'data-template': template.connector_type };
    const button = el('button', attrs, icon, el('span', null, template.name));
    button.addEventListener('click', () => openTemplate(template));
    return el('li', null, button);
  });
  ui.templates.replaceChildren(...items);
  ui.noTemplates.hidden = templates.length > 0;
}

// ---- Step 2: credentials ----

function openTemplate(template) {
  state.template = template;
  ui.formTitle.textContent = `Connect ${template.name}`;
  ui.connectionName.value = '';
  const options = template.credential_options || [];
  ui.options.hidden = options.length < 2;
  ui.optionList.replaceChildren(...options.map(optionChoice));
  selectOption(options[0]);
  showStep('form');
}

function optionChoice(option, index) {
  const id = `option-${index}`;
  const help = option.description ? el('p', { id: `${id}-help`, class: 'hint' }, option.description) : null;
  const attrs = { type: 'radio', id, name: 'credential_option', value: option.title, checked: index === 0 };
  const radio = el('input', { ...attrs, 'aria-describedby': help?.id });
  radio.addEventListener('change', () => selectOption(option));
  return el('div', { class: 'choice' }, radio, el('label', { for: id }, option.title), help);
}

let nextId = 0;

function addInput(group, key, { label, help, secret, required, pattern }) {
  const id = `field-${++nextId}`;
  const input = el('input', {
    id,
    name: group === 'credentials' ? key : `env.${key}`,
    type: secret ? 'password' : 'text',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    required: !!required,
    pattern,
    'aria-describedby': help ? `${id}-error ${id}-help` : `${id}-error`,
  });
  state.inputs.push({ group, key, input, secret: !!secret });
  const optional = required ? null : el('span', { class: 'optional' }, ' (optional)');
  return el(
    'div',
    { class: 'field' },
    el('label', { for: id }, label, optional),
    help ? el('p', { id: `${id}-help`, class: 'hint' }, help) : null,
    el('p', { id: `${id}-error`, class: 'field-error' }),
    input,
  );
}

function selectOption(option) {
  state.option = option || null;
  state.inputs = [];
  clearMessages();
  const nodes = [];
  if (option?.kind === 'form' || option?.kind === 'oauth') {
    // With several options each description sits beside its radio; a lone option shows it here.
    if (ui.options.hidden && option.description) nodes.push(el('p', { class: 'hint' }, option.description));
    for (const f of option.kind === 'form' ? option.fields || [] : []) {
      const spec = { label: f.title || f.name, help: f.description, secret: f.secret, required: f.required };
      nodes.push(addInput('credentials', f.name, spec));
    }
    for (const e of option.environment || []) {
      const spec = { label: e.name, help: e.description, required: e.required, pattern: e.pattern };
      nodes.push(addInput('environment', e.name, spec));
    }
  } else {
    nodes.push(el('p', null, 'This app cannot be connected from this page.'));
  }
  ui.fields.replaceChildren(...nodes);
  ui.actions.replaceChildren(...actionButtons(option));
}

function actionButtons(option) {
  const button = (action, type, label, style = 'primary') =>
    el('button', { type, class: style, 'data-action': action }, label);
  if (option?.kind === 'oauth') return [button('oauth', 'submit', `Continue with ${state.template.name}`)];
  if (option?.kind !== 'form') return [];
  const check = button('check', 'button', 'Test connection', 'secondary');
  check.addEventListener('click', () => {
    if (ui.form.reportValidity()) withBusy(check, runCheck);
  });
  return [check, button('connect', 'submit', 'Connect')];
}

// kind: 'check' | 'connect' | 'oauth'. Empty values are left out so optional fields stay unset.
function payload(kind) {
  const body = { template_id: state.template.id, option: state.option.title };
  if (kind !== 'oauth') body.credentials = {};
  body.environment = {};
  for (const { group, key, input, secret } of state.inputs) {
    // A secret may legitimately start or end with a space; other values lose paste noise.
    const value = secret ? input.value : input.value.trim();
    if (value === '') continue;
    if (group === 'environment') body.environment[key] = value;
    else if (body.credentials) body.credentials[key] = value;
  }
  const name = ui.connectionName.value.trim();
  if (kind !== 'check' && name) body.name = name;
  return body;
}

async function withBusy(button, task) {
  const controls = ui.steps.form.querySelectorAll('button, input[type="radio"]');
  for (const control of controls) control.disabled = true;
  ui.form.setAttribute('aria-busy', 'true');
  button.setAttribute('aria-busy', 'true');
  try {
    await task();
  } finally {
    for (const control of controls) control.disabled = false;
    ui.form.removeAttribute('aria-busy');
    button.removeAttribute('aria-busy');
    // Disabling the focused button drops focus to <body>; hand it back so keyboard users keep their place.
    const lost = !document.activeElement || document.activeElement === document.body;
    if (lost && !ui.steps.form.hidden && button.isConnected) button.focus();
  }
}

async function runCheck() {
  clearMessages();
  showStatus('Testing the connection…');
  const result = await api('POST', '/connect/api/check', payload('check')).catch((err) => {
    showStatus('');
    showError(err);
  });
  if (!result) return;
  const detail = result.message ? `: ${result.message}` : '.';
  if (result.status === 'succeeded') showStatus(`The connection works${detail}`, 'ok');
  else showStatus(`The connection test failed${detail}`, 'error');
}

async function createConnector() {
  clearMessages();
  showStatus('Connecting…');
  const record = await api('POST', '/connect/api/connectors', payload('connect')).catch(fail);
  if (record) succeed(record, state.template);
}

// ---- OAuth ----

async function startOAuth() {
  clearMessages();
  showStatus('Preparing the sign-in…');
  // The nonce goes to ces with the flow and comes back only in the address of that flow's done page.
  const nonce = newNonce();
  const reply = await api('POST', '/connect/api/oauth', { ...payload('oauth'), nonce }).catch(fail);
  if (!reply) return;
  const url = attempt(() => new URL(reply.consent_url));
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:') {
    return fail(apiError(0, 'INVALID_CONSENT_URL', 'The server returned an invalid sign-in address.'));
  }
  state.flow = { template: state.template, nonce };
  // A stale marker would be copied into the popup's sessionStorage and make it finish the flow itself.
  storage.remove(PENDING_KEY);
  if (window.open(url.href, ...POPUP)) return showStatus(WAITING);
  if (window.parent !== window) return offerPopup(url.href);
  // Popup blocked in a top-level window: run the flow in this window; /connect/oauth-done finishes it
  // with the token and this marker from sessionStorage.
  storage.set(PENDING_KEY, JSON.stringify({ template_id: state.template.id, nonce }));
  location.assign(url.href);
}

// In an iframe a blocked popup cannot fall back to navigating the frame: providers refuse to be framed, and
// /connect/oauth-done has no origin to allow framing. A click gives the browser the user activation it wants.
function offerPopup(href) {
  const attrs = { type: 'button', class: 'primary', 'data-action': 'oauth-open' };
  const open = el('button', attrs, 'Open sign-in window');
  open.addEventListener('click', () => {
    if (!window.open(href, ...POPUP)) return;
    open.remove();
    ui.actions.querySelector('[data-action="oauth"]')?.focus();
    showStatus(WAITING);
  });
  ui.actions.append(open);
  showStatus('Your browser blocked the sign-in window. Use “Open sign-in window” to open it.');
  open.focus();
}

function newNonce() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

// A result is the waiting flow's only if it carries that flow's nonce; anything else is ignored, and the flow
// keeps waiting.
const ownResult = (data, nonce) =>
  data?.type === RESULT_TYPE && typeof nonce === 'string' && nonce !== '' && data.nonce === nonce;

function onOAuthResult(data) {
  const flow = state.flow;
  if (!flow || !ownResult(data, flow.nonce)) return;
  state.flow = null;
  finishOAuth(data, flow.template);
}

async function finishOAuth(data, template) {
  clearMessages();
  if (!data.connector_id) {
    const code = String(data.error || 'OAUTH_ERROR');
    const message = data.error_description
      ? String(data.error_description)
      : `Sign-in was not completed (${code}).`;
    return fail(apiError(0, code, message));
  }
  showStatus('Finishing…');
  const path = `/connect/api/connectors/${encodeURIComponent(data.connector_id)}`;
  const record = await api('GET', path).catch(fail);
  if (record) succeed(record, template);
}

function readOAuthResult() {
  const params = new URLSearchParams(location.search);
  const nonce = params.get('nonce') || '';
  const connectorId = params.get('connector_id');
  if (connectorId) return { type: RESULT_TYPE, nonce, connector_id: connectorId };
  const error = params.get('error') || 'OAUTH_ERROR';
  return { type: RESULT_TYPE, nonce, error, error_description: params.get('error_description') || '' };
}

// On /connect/oauth-done in the popup: give the result to the page that opened it. False when this window
// has to finish the flow itself.
function handOff(result, pending) {
  if (pending) return false; // this very window went to the provider (popup blocked)
  // Reading a cross-origin opener's location throws: that opener is the host, not the page that started the flow.
  const opener = attempt(() => (window.opener?.location.origin === location.origin ? window.opener : null));
  if (!opener) {
    channel?.postMessage(result);
    return false;
  }
  opener.postMessage(result, location.origin);
  window.close();
  // close() can be refused (e.g. the user reloaded the page by hand); say what to do instead.
  showStatus('Sign-in finished. You can close this window.');
  return true;
}

// ---- Start ----

function readToken() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (!fromHash) return storage.get(TOKEN_KEY);
  // Keep the token out of the address bar, the history and any copied link.
  history.replaceState(null, '', location.pathname + location.search);
  storage.set(TOKEN_KEY, fromHash);
  return fromHash;
}

function wireEvents() {
  ui.form.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = event.submitter || ui.actions.querySelector('[type="submit"]');
    if (button && state.option?.kind === 'oauth') withBusy(button, startOAuth);
    else if (button && state.option?.kind === 'form') withBusy(button, createConnector);
  });
  // A pending OAuth flow survives "Back": its connector may still be created, and the host must hear of it.
  for (const action of ['back', 'restart']) {
    document.querySelector(`[data-action="${action}"]`).addEventListener('click', () => {
      clearMessages();
      showStep('list');
    });
  }
  window.addEventListener('message', (event) => {
    // Only our own oauth-done page may report a result; the host or another frame cannot fake one.
    if (event.origin === location.origin) onOAuthResult(event.data);
  });
  channel?.addEventListener('message', (event) => onOAuthResult(event.data));
}

async function boot() {
  wireEvents();
  const oauthDone = location.pathname.endsWith('/oauth-done');
  const pending = oauthDone ? attempt(() => JSON.parse(storage.get(PENDING_KEY))) : null;
  const result = oauthDone ? readOAuthResult() : null;
  if (oauthDone && handOff(result, pending)) return;
  storage.remove(PENDING_KEY);

  state.token = readToken();
  // A popup cut off from its opener may have no token; the page that opened it finishes the flow.
  if (!state.token && oauthDone)
    return showStatus('You can close this window and return to the application.');
  if (!state.token) return fatal(NO_TOKEN);
  showStatus('Loading…');
  state.session = await api('GET', '/connect/api/session').catch((err) => {
    if (err.status === 401) storage.remove(TOKEN_KEY);
    fatal(err.message);
  });
  if (!state.session) return;
  const requested = new URLSearchParams(location.search).get('origin');
  const originOf = (value) => attempt(() => new URL(value).origin);
  if (requested && originOf(requested) !== originOf(state.session.allowed_origin)) {
    state.session = null; // nothing may be posted to a window this page was not opened for
    return fatal('This page was opened from a site that is not allowed to use it.');
  }
  showStatus('');
  renderTemplates();
  if (!oauthDone) return showStep('list');

  // The flow ran in this window: a reload-safe address first, then finish on the template's page.
  history.replaceState(null, '', location.pathname.replace(/\/oauth-done$/, ''));
  // This window went to the provider itself (pending): a result without that flow's nonce is not its flow's, and
  // nothing of it is believed. (Without pending, this is a popup whose opener was cut off: see handOff.)
  if (pending && !ownResult(result, pending.nonce)) return showStep('list');
  const template = (state.session.templates || []).find((t) => t.id === pending?.template_id);
  if (template) openTemplate(template);
  else showStep('list');
  finishOAuth(result, template);
}

boot().catch(() => fatal('Something went wrong. Reload the page to try again.'));
