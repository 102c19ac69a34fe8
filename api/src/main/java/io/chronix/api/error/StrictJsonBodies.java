package io.chronix.api.error;

import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Type;

/**
 * Unknown fields in a JSON body are an error for the tenancy endpoints (tenants, namespaces,
 * tokens) and the delete endpoint, although the application's mapper ignores them (Spring Boot's
 * default). The body is read once more with a strict reader before the normal conversion; a
 * failure becomes the same {@link HttpMessageNotReadableException} Spring would raise, answered by
 * {@link ApiExceptionHandler} with the field named. Admin bodies are small, so reading twice costs nothing that matters.
 */
@ControllerAdvice(basePackages = {"io.chronix.api.tenant", "io.chronix.api.namespace", "io.chronix.api.token", "io.chronix.api.lifecycle"})
class StrictJsonBodies extends RequestBodyAdviceAdapter {

    /** Admin bodies are a few hundred bytes; this bounds what is buffered. */
    static final int MAX_BODY = 64 * 1024;

    private final JsonMapper strict;

    StrictJsonBodies(JsonMapper json) {
        this.strict = json.rebuild().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    }

    @Override
    public boolean supports(MethodParameter parameter, Type targetType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public HttpInputMessage beforeBodyRead(HttpInputMessage input, MethodParameter parameter, Type targetType,
                                           Class<? extends HttpMessageConverter<?>> converterType) throws IOException {
        byte[] body = input.getBody().readNBytes(MAX_BODY + 1);
        if (body.length > MAX_BODY) {
            throw new HttpMessageNotReadableException("request body is larger than " + MAX_BODY + " bytes", input);
        }
        if (body.length > 0) {
            try {
                strict.readerFor(strict.constructType(targetType)).readValue(body);
            } catch (JacksonException e) {
                throw new HttpMessageNotReadableException("JSON parse error: " + e.getOriginalMessage(), e, input);
            }
        }
        HttpHeaders headers = input.getHeaders();
        return new HttpInputMessage() {
            @Override
            public InputStream getBody() {
                return new ByteArrayInputStream(body);
            }

            @Override
            public HttpHeaders getHeaders() {
                return headers;
            }
        };
    }
}
