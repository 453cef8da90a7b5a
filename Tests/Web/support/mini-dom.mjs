// Just enough of a DOM for the row markup contract, so node can run locale.js's `localizeRow` on the
// HTML the server writes: elements with attributes and text, `querySelector('.class')`, `textContent`,
// `setAttribute`, and `outerHTML` written with the contract's escaping. The markup it reads has every
// tag closed (no void elements) and only `& < > "` escaped, as the contract says.

const unescapes = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };
const unescape = (text) => text.replace(/&(amp|lt|gt|quot);/g, (e) => unescapes[e]);
const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

class Element {
  constructor(tag, attributes) {
    this.tag = tag;
    this.attributes = attributes; // [[name, value or null for a bare boolean attribute]]
    this.children = []; // Elements and strings
  }

  getAttribute(name) {
    return this.attributes.find(([n]) => n === name)?.[1] ?? null;
  }

  setAttribute(name, value) {
    const found = this.attributes.find(([n]) => n === name);
    if (found) found[1] = String(value);
    else this.attributes.push([name, String(value)]);
  }

  get dataset() {
    return { id: this.getAttribute('data-id') };
  }

  set textContent(text) {
    this.children = [String(text)];
  }

  get textContent() {
    return this.children.map((c) => (typeof c === 'string' ? c : c.textContent)).join('');
  }

  /** The first descendant with a class, for the `.class` selectors localizeRow uses. */
  querySelector(selector) {
    const wanted = selector.replace(/^\./, '');
    for (const child of this.children) {
      if (typeof child === 'string') continue;
      if ((child.getAttribute('class') ?? '').split(' ').includes(wanted)) return child;
      const deeper = child.querySelector(selector);
      if (deeper) return deeper;
    }
    return null;
  }

  get outerHTML() {
    const attributes = this.attributes.map(([n, v]) => (v === null ? ` ${n}` : ` ${n}="${escape(v)}"`)).join('');
    const inner = this.children.map((c) => (typeof c === 'string' ? escape(c) : c.outerHTML)).join('');
    return `<${this.tag}${attributes}>${inner}</${this.tag}>`;
  }
}

/** The one element of `html` (its root), parsed. */
export function parse(html) {
  const root = new Element('#root', []);
  const stack = [root];
  const token = /<\/([a-z]+)>|<([a-z]+)((?:\s+[a-z-]+(?:="[^"]*")?)*)>|([^<]+)/g;
  for (const [, close, open, attributes, text] of html.matchAll(token)) {
    const top = stack[stack.length - 1];
    if (text !== undefined) top.children.push(unescape(text));
    else if (close) stack.pop();
    else {
      const list = [...attributes.matchAll(/([a-z-]+)(?:="([^"]*)")?/g)].map(([, n, v]) => [n, v === undefined ? null : unescape(v)]);
      const element = new Element(open, list);
      top.children.push(element);
      stack.push(element);
    }
  }
  return root.children[0];
}
