package io.chronix.api.error;

import org.apache.catalina.Lifecycle;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.ContentNegotiationConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.json.JsonMapper;

import java.util.Arrays;
import java.util.List;

/**
 * Where errors outside any endpoint get their problem documents: Tomcat's host error report
 * ({@link ProblemErrorReportValve}), the error dispatch ({@link ProblemErrorController}), Spring
 * Security's firewall ({@link ProblemRequestRejectedHandler}) and an {@code Accept} header that
 * does not parse ({@link ErrorNegotiation}).
 */
@Configuration(proxyBeanMethods = false)
class ErrorResponsesConfiguration {

    /**
     * The host's error report valve is ours. The context is customised before it is added to its
     * host, and the host adds Tomcat's HTML valve when it starts, just before it starts the
     * context; so when the context is about to start, the host's {@link ErrorReportValve}s are
     * replaced by ours (and its error report valve class named ours, should it start again).
     */
    @Bean
    TomcatContextCustomizer problemErrorReportValve(JsonMapper json) {
        return context -> context.addLifecycleListener(event -> {
            if (Lifecycle.BEFORE_START_EVENT.equals(event.getType()) && context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
                for (Valve v : host.getPipeline().getValves()) {
                    if (v instanceof ErrorReportValve && !(v instanceof ProblemErrorReportValve)) {
                        host.getPipeline().removeValve(v);
                    }
                }
                if (Arrays.stream(host.getPipeline().getValves()).noneMatch(ProblemErrorReportValve.class::isInstance)) {
                    host.getPipeline().addValve(new ProblemErrorReportValve(json));
                }
            }
        });
    }

    @Bean
    WebMvcConfigurer errorNegotiation() {
        return new WebMvcConfigurer() {
            @Override
            public void configureContentNegotiation(ContentNegotiationConfigurer configurer) {
                configurer.strategies(List.of(new ErrorNegotiation()));
            }
        };
    }
}
