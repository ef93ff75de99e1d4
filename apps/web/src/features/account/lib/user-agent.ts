/** A short "Browser on OS" description of a User-Agent string, for the sessions list. Null parts are unknown. */
export function describeUserAgent(ua: string): { browser: string | null; os: string | null } {
  return { browser: browserOf(ua), os: osOf(ua) };
}

function browserOf(ua: string): string | null {
  // Order matters: Edge and Opera also say Chrome; Chrome also says Safari.
  if (/Edg(e|A|iOS)?\//.test(ua)) return 'Edge';
  if (/OPR\/|Opera/.test(ua)) return 'Opera';
  if (/YaBrowser\//.test(ua)) return 'Yandex Browser';
  if (/SamsungBrowser\//.test(ua)) return 'Samsung Internet';
  if (/Firefox\/|FxiOS\//.test(ua)) return 'Firefox';
  if (/Chrome\/|CriOS\/|Chromium\//.test(ua)) return 'Chrome';
  if (/Safari\//.test(ua) && /Version\//.test(ua)) return 'Safari';
  if (/curl\//i.test(ua)) return 'curl';
  return null;
}

function osOf(ua: string): string | null {
  if (/iPhone/.test(ua)) return 'iOS';
  if (/iPad/.test(ua)) return 'iPadOS';
  if (/Android/.test(ua)) return 'Android';
  if (/Windows/.test(ua)) return 'Windows';
  if (/CrOS/.test(ua)) return 'ChromeOS';
  if (/Mac OS X|Macintosh/.test(ua)) return 'macOS';
  if (/Linux/.test(ua)) return 'Linux';
  return null;
}
