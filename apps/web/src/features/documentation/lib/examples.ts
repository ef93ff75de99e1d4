// Code examples for the customer API with an API key. The code is not translated; its comments are, in the reader's
// language from the docs locale (examples.comments.*, rotation.comments.*), like the text around it.
export const EXAMPLE_LANGUAGES = ['curl', 'python', 'node'] as const;
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

export interface Examples { list: string; rotate: string }
/** The comments of the API examples, already translated. */
export interface ExampleComments { key: string; list: string; rotate: string; tooSoon: string }
/** The comments of the rotation-link examples, already translated. */
export interface RotationComments { answer: string; cron: string; router: string }

export function apiExamples(origin: string, c: ExampleComments): Record<ExampleLanguage, Examples> {
  const base = `${origin}/api/v1`;
  return {
    curl: {
      list: `# ${c.key}\nexport CELLPORT_KEY="cpk_..."\n\n# ${c.list}\ncurl -s -H "Authorization: Bearer $CELLPORT_KEY" \\\n  ${base}/modems`,
      rotate: `# ${c.rotate}\ncurl -s -X POST -H "Authorization: Bearer $CELLPORT_KEY" \\\n  ${base}/modems/PORT_ID/rotate`,
    },
    python: {
      list: `import os
import requests

BASE = "${base}"
# ${c.key}
HEADERS = {"Authorization": f"Bearer {os.environ['CELLPORT_KEY']}"}

# ${c.list}
ports = requests.get(f"{BASE}/modems", headers=HEADERS, timeout=30)
ports.raise_for_status()
for port in ports.json():
    print(port["_id"], port["modem_name"], port["ext_ip"])`,
      rotate: `# ${c.rotate}
port_id = "PORT_ID"
r = requests.post(f"{BASE}/modems/{port_id}/rotate", headers=HEADERS, timeout=90)
if r.status_code == 429:
    # ${c.tooSoon}
    print("Too soon, try again in", r.json().get("retryAfter"), "s")
else:
    r.raise_for_status()
    print(r.json())`,
    },
    node: {
      list: `const BASE = '${base}';
// ${c.key}
const headers = { Authorization: \`Bearer \${process.env.CELLPORT_KEY}\` };

// ${c.list}
const res = await fetch(\`\${BASE}/modems\`, { headers });
if (!res.ok) throw new Error(\`HTTP \${res.status}\`);
for (const port of await res.json()) {
  console.log(port._id, port.modem_name, port.ext_ip);
}`,
      rotate: `// ${c.rotate}
const portId = 'PORT_ID';
const rotated = await fetch(\`\${BASE}/modems/\${portId}/rotate\`, { method: 'POST', headers });
// ${c.tooSoon}
console.log(rotated.status, await rotated.json());`,
    },
  };
}

export function rotationLinkExamples(origin: string, c: RotationComments): { curl: string; cron: string; mikrotik: string } {
  const link = `${origin}/api/v1/rotate/YOUR_LINK_TOKEN`;
  return {
    curl: `curl -s "${link}"\n# ${c.answer}: {"old_ip":"203.0.113.7","new_ip":"198.51.100.24"}`,
    cron: `# ${c.cron}\n*/10 * * * * curl -s "${link}" > /dev/null`,
    mikrotik: `# ${c.router}\n/tool fetch url="${link}" keep-result=no`,
  };
}
