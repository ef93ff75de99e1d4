import { useEffect, useId, useState } from 'react';

/** A labelled search field that reports its text 300 ms after the last keystroke (Enter reports at once). */
export function SearchBox({ label, value, onSearch, placeholder }: { label: string; value: string; onSearch: (q: string) => void; placeholder?: string }) {
  const id = useId();
  const [text, setText] = useState(value);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onSearch(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <form role="search" className="field admin-search" onSubmit={(e) => { e.preventDefault(); onSearch(text.trim()); }}>
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" value={text} placeholder={placeholder} onChange={(e) => setText(e.target.value)} />
    </form>
  );
}
