package io.chronix.engine.ingest;

import io.chronix.engine.model.PointBatch;

/** Writes a batch as line protocol, escaping as the parser expects (tests and benchmarks). */
final class LineProtocolWriter {

    private LineProtocolWriter() {
    }

    static String write(PointBatch batch, Precision precision) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < batch.size(); i++) {
            escape(sb, batch.measurement(i), ", \\");
            for (int t = 0; t < batch.tagCount(i); t++) {
                sb.append(',');
                escape(sb, batch.tagKey(i, t), ",= \\");
                sb.append('=');
                escape(sb, batch.tagValue(i, t), ",= \\");
            }
            sb.append(' ');
            for (int f = 0; f < batch.fieldCount(i); f++) {
                if (f > 0) {
                    sb.append(',');
                }
                escape(sb, batch.fieldName(i, f), ",= \\");
                sb.append('=');
                switch (batch.fieldType(i, f)) {
                    case FLOAT -> sb.append(batch.floatValue(i, f));
                    case INTEGER -> sb.append(batch.longValue(i, f)).append('i');
                    case UNSIGNED -> sb.append(Long.toUnsignedString(batch.longValue(i, f))).append('u');
                    case BOOLEAN -> sb.append(batch.booleanValue(i, f));
                    case STRING -> {
                        sb.append('"');
                        escape(sb, batch.stringValue(i, f), "\"\\");
                        sb.append('"');
                    }
                }
            }
            sb.append(' ').append(batch.timestamp(i) / precision.nanos()).append('\n');
        }
        return sb.toString();
    }

    private static void escape(StringBuilder sb, String s, String special) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (special.indexOf(c) >= 0) {
                sb.append('\\');
            }
            sb.append(c);
        }
    }
}
