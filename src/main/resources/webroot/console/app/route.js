// The hash routes of the console, as pure functions (no DOM), so they can be tested under node.

/**
 * #/q/<account>/<region>/<name>/<tab>, #/topics or the overview. A fragment that is not valid
 * percent-encoding (#/q/%E0, typed or pasted) is the overview rather than a blank page.
 */
export function parseRoute(hash) {
  let parts;
  try {
    parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  } catch (e) {
    if (e instanceof URIError) return {view: 'overview', key: 'overview', tab: 'queues'};
    throw e;
  }
  if (parts[0] === 'q' && parts.length >= 4) {
    const [, account, region, name, tab = 'messages'] = parts;
    return {view: 'queue', key: `q/${account}/${region}/${name}`, account, region, name, tab};
  }
  return {view: 'overview', key: 'overview', tab: parts[0] === 'topics' ? 'topics' : 'queues'};
}

export function queueHash(account, region, name, tab) {
  return '#/q/' + [account, region, name].map(encodeURIComponent).join('/') + (tab ? `/${tab}` : '');
}
