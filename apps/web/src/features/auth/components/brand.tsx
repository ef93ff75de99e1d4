import { Link } from 'wouter';

/** The product mark and name; leads to the language's home (the dashboard, or sign-in when signed out). */
export function Brand({ name }: { name: string }) {
  return (
    <Link href="/" className="auth-brand">
      <svg className="auth-brand__mark" width="28" height="28" viewBox="0 0 28 28" aria-hidden="true" focusable="false">
        <rect width="28" height="28" rx="8" fill="currentColor" />
        <path d="M8 19h2.5v-3H8zm4.75 0h2.5v-6h-2.5zM17.5 19H20V9h-2.5z" fill="#fff" />
      </svg>
      <span className="auth-brand__name">{name}</span>
    </Link>
  );
}
