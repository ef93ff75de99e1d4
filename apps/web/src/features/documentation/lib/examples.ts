// Code examples for the customer API with an API key. Code is not translated; the text around it is.
export const EXAMPLE_LANGUAGES = ['curl', 'python', 'node'] as const;
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

export interface Examples { list: string; rotate: string }

export function apiExamples(origin: string): Record<ExampleLanguage, Examples> {
  const base = `${origin}/api/v1`;
  return {
    curl: {
      list: `export CELLPORT_KEY="cpk_..."\n\ncurl -s -H "Authorization: Bearer $CELLPORT_KEY" \\\n  ${base}/modems`,
      rotate: `curl -s -X POST -H "Authorization: Bearer $CELLPORT_KEY" \\\n  ${base}/modems/PORT_ID/rotate`,
    },
    python: {
      list: `import os
import requests

BASE = "${base}"
HEADERS = {"Authorization": f"Bearer {os.environ['CELLPORT_KEY']}"}

ports = requests.get(f"{BASE}/modems", headers=HEADERS, timeout=30)
ports.raise_for_status()
for port in ports.json():
    print(port["_id"], port["modem_name"], port["ext_ip"])`,
      rotate: `port_id = "PORT_ID"
r = requests.post(f"{BASE}/modems/{port_id}/rotate", headers=HEADERS, timeout=90)
if r.status_code == 429:
    print("Too soon, try again in", r.json().get("retryAfter"), "s")
else:
    r.raise_for_status()
    print(r.json())`,
    },
    node: {
      list: `const BASE = '${base}';
const headers = { Authorization: \`Bearer \${process.env.CELLPORT_KEY}\` };

const res = await fetch(\`\${BASE}/modems\`, { headers });
if (!res.ok) throw new Error(\`HTTP \${res.status}\`);
for (const port of await res.json()) {
  console.log(port._id, port.modem_name, port.ext_ip);
}`,
      rotate: `const portId = 'PORT_ID';
const rotated = await fetch(\`\${BASE}/modems/\${portId}/rotate\`, { method: 'POST', headers });
console.log(rotated.status, await rotated.json());`,
    },
  };
}

export function rotationLinkExamples(origin: string): { curl: string; cron: string; mikrotik: string } {
  const link = `${origin}/api/v1/rotate/YOUR_LINK_TOKEN`;
  return {
    curl: `curl -s "${link}"\n# {"old_ip":"203.0.113.7","new_ip":"198.51.100.24"}`,
    cron: `*/10 * * * * curl -s "${link}" > /dev/null`,
    mikrotik: `/tool fetch url="${link}" keep-result=no`,
  };
}
