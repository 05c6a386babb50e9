import { Link } from 'wouter';

export function NotFoundPage() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing is at this address. <Link href="/tenants">See the tenants</Link>.
      </p>
    </section>
  );
}
