package io.chronix.api.write;

import org.springframework.http.HttpStatus;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A write refused or partly refused, with everything both answer shapes need: the service's
 * problem document (status, stable {@code errorId}, title, detail, extra properties) and InfluxDB's
 * ({@code code}, {@code line}). Handlers turn it into one or the other.
 */
public final class WriteException extends RuntimeException {

    private final HttpStatus status;
    private final String errorId;
    private final String title;
    private final Map<String, Object> properties;
    private final String influxCode;
    private final Integer line;
    private final Long retryAfterSeconds;
    private final String influxMessage;

    WriteException(HttpStatus status, String errorId, String title, String detail, Map<String, Object> properties,
                   String influxCode, Integer line, Long retryAfterSeconds) {
        this(status, errorId, title, detail, properties, influxCode, line, retryAfterSeconds, detail);
    }

    private WriteException(HttpStatus status, String errorId, String title, String detail, Map<String, Object> properties,
                           String influxCode, Integer line, Long retryAfterSeconds, String influxMessage) {
        super(detail);
        this.influxMessage = influxMessage;
        this.status = status;
        this.errorId = errorId;
        this.title = title;
        this.properties = new LinkedHashMap<>(properties);
        this.influxCode = influxCode;
        this.line = line;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    static WriteException of(HttpStatus status, String errorId, String title, String detail, String influxCode) {
        return new WriteException(status, errorId, title, detail, Map.of(), influxCode, null, null);
    }

    /** The same error with another {@code message} in InfluxDB's shape. */
    WriteException withInfluxMessage(String message) {
        return new WriteException(status, errorId, title, getMessage(), properties, influxCode, line, retryAfterSeconds, message);
    }

    /** InfluxDB's {@code message}: every rejected line, one per line of text. */
    public String influxMessage() {
        return influxMessage;
    }

    public HttpStatus status() {
        return status;
    }

    public String errorId() {
        return errorId;
    }

    public String title() {
        return title;
    }

    public String detail() {
        return getMessage();
    }

    /** Extra members of the problem document ({@code errors}, {@code written}, {@code tenant}, {@code limit}…). */
    public Map<String, Object> properties() {
        return properties;
    }

    /** InfluxDB's {@code code}: {@code invalid}, {@code unprocessable entity}, {@code too many requests}… */
    public String influxCode() {
        return influxCode;
    }

    /** The line InfluxDB's shape names, if the error is about one. */
    public Integer line() {
        return line;
    }

    /** For 429: seconds until the request would pass. */
    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
