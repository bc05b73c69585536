{{- define "agentry.secretName" -}}
{{- if .Values.secrets.existingSecret }}{{ .Values.secrets.existingSecret }}{{ else }}{{ .Release.Name }}-agentry{{ end -}}
{{- end -}}

{{- define "agentry.env" -}}
- { name: NODE_ENV, value: production }
- { name: AGENTRY_HOST, value: "0.0.0.0" }
- { name: AGENTRY_ENV, value: {{ .Values.env | quote }} }
- { name: AGENTRY_SUBJECT_PREFIX, value: {{ .Values.subjectPrefix | quote }} }
- { name: DATABASE_URL, value: {{ .Values.database.url | quote }} }
- { name: REDIS_URL, value: {{ .Values.redis.url | quote }} }
- { name: NATS_URL, value: {{ .Values.nats.url | quote }} }
{{- if .Values.otel.endpoint }}
- { name: OTEL_EXPORTER_OTLP_ENDPOINT, value: {{ .Values.otel.endpoint | quote }} }
{{- end }}
- name: AGENTRY_JWT_SECRET
  valueFrom: { secretKeyRef: { name: {{ include "agentry.secretName" . }}, key: jwtSecret } }
- name: AGENTRY_ADMIN_PASSWORD
  valueFrom: { secretKeyRef: { name: {{ include "agentry.secretName" . }}, key: adminPassword } }
- name: AGENTRY_MASTER_KEY
  valueFrom: { secretKeyRef: { name: {{ include "agentry.secretName" . }}, key: masterKey } }
- name: ANTHROPIC_API_KEY
  valueFrom: { secretKeyRef: { name: {{ include "agentry.secretName" . }}, key: anthropicApiKey, optional: true } }
- name: OPENAI_API_KEY
  valueFrom: { secretKeyRef: { name: {{ include "agentry.secretName" . }}, key: openaiApiKey, optional: true } }
{{- end -}}
