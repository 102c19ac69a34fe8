package io.chronix.bench.query.dialect;

import io.chronix.bench.query.ResultTable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The JSON mapper the dialects share, and the one conversion of a JSON cell into a result cell. */
final class Json {
    static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Json() {
    }

    static JsonNode read(String body) {
        try {
            return MAPPER.readTree(body);
        } catch (RuntimeException e) {
            throw new QueryFailedException("answer is not JSON: " + e.getMessage() + " [body=" + abbreviate(body) + "]");
        }
    }

    static Object cell(String column, JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        Object raw;
        if (node.isIntegralNumber()) {
            raw = node.longValue();
        } else if (node.isNumber()) {
            raw = node.doubleValue();
        } else if (node.isBoolean()) {
            raw = node.booleanValue();
        } else {
            raw = node.asString();
        }
        return ResultTable.normalise(column, raw);
    }

    static String abbreviate(String s) {
        return s.length() <= 500 ? s : s.substring(0, 500) + "...";
    }
}
