// Google's invisible reCAPTCHA, loaded only when the server is configured for it.
interface Grecaptcha {
  render(container: HTMLElement, options: { sitekey: string; size: 'invisible'; callback: (token: string) => void; 'error-callback': () => void }): number;
  execute(widget: number): void;
}
declare global {
  interface Window { grecaptcha?: Grecaptcha; cellportRecaptchaLoaded?: () => void }
}

let script: Promise<Grecaptcha> | null = null;

function loadScript(): Promise<Grecaptcha> {
  script ??= new Promise<Grecaptcha>((resolve, reject) => {
    window.cellportRecaptchaLoaded = () => (window.grecaptcha ? resolve(window.grecaptcha) : reject(new Error('reCAPTCHA missing')));
    const tag = document.createElement('script');
    tag.src = 'https://www.google.com/recaptcha/api.js?onload=cellportRecaptchaLoaded&render=explicit';
    tag.async = true;
    tag.onerror = () => { script = null; reject(new Error('reCAPTCHA did not load')); };
    document.head.appendChild(tag);
  });
  return script;
}

/** Runs the invisible widget once and resolves with its token. */
export async function recaptchaToken(siteKey: string): Promise<string> {
  const grecaptcha = await loadScript();
  return new Promise<string>((resolve, reject) => {
    const container = document.createElement('div');
    document.body.appendChild(container);
    const widget = grecaptcha.render(container, {
      sitekey: siteKey,
      size: 'invisible',
      callback: resolve,
      'error-callback': () => reject(new Error('reCAPTCHA failed')),
    });
    grecaptcha.execute(widget);
  });
}
