/** An amount of money as the API writes it (a decimal string). */
interface Money {
  amount: string;
  currency?: string;
}

/** The fields of a `/v1` session the console reads. */
export interface SessionBody {
  id: string;
  title?: string | null;
  status: string;
  created_at: string;
  stop_reason?: { type?: string } | null;
  agent?: { id?: string; version?: number };
  usage?: { input_tokens?: number; output_tokens?: number; list_cost?: Money | null };
  budget?: { max_list_cost?: Money | null } | null;
}
