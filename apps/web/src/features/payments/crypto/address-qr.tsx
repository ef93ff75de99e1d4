import { useEffect, useState } from 'react';

/**
 * A QR code of the deposit address, drawn in the browser: `qrcode` loads as its own chunk only when a crypto
 * modal opens, and renders an SVG (shown as a data: image, which the CSP allows) — no server round trip and no
 * third-party QR service that would learn the customer's address.
 */
export function AddressQr({ value, label }: { value: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((qr) => qr.toString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then((svg) => { if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`); })
      .catch(() => { if (live) setSrc(null); });
    return () => { live = false; };
  }, [value]);
  return (
    <div className="pay-qr" data-testid="deposit-qr">
      {src ? <img src={src} alt={label} width={168} height={168} /> : <span className="pay-qr__placeholder" aria-hidden="true" />}
    </div>
  );
}
