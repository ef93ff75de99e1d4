import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';
import type { OpenApiDocument } from '../lib/openapi';

/** GET /api/v1/openapi.json: the document generated from the server's route schemas. */
export const useOpenApi = () =>
  useQuery({ queryKey: ['openapi'], queryFn: () => apiGet<OpenApiDocument>('/openapi.json'), staleTime: 30 * 60_000 });
