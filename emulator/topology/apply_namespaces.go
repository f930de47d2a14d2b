package topology

import (
	"encoding/json"
	"net/http"
	"net/url"
)

type armNamespaceTopic struct {
	Properties struct {
		EventRetentionInDays int64 `json:"eventRetentionInDays,omitempty"`
	} `json:"properties"`
}

type armNamespaceSubscription struct {
	Properties struct {
		DeliveryConfiguration json.RawMessage `json:"deliveryConfiguration"`
		EventDeliverySchema   string          `json:"eventDeliverySchema,omitempty"`
		FiltersConfiguration  json.RawMessage `json:"filtersConfiguration,omitempty"`
	} `json:"properties"`
}

func (a *applier) namespace(eg *EventGrid, ns Namespace) error {
	path := armGroup(eg) + "/namespaces/" + url.PathEscape(ns.Name)
	what := "namespace " + quote(ns.Name)
	body := mustJSON(map[string]string{"location": eg.Location})
	if err := a.put(ns.Source, what, path, armHeader(ns.Keys), body); err != nil {
		return err
	}
	if err := a.checkKeys(ns.Source, what, path, ns.Keys); err != nil {
		return err
	}
	for _, t := range ns.Topics {
		if err := a.namespaceTopic(ns, t, path); err != nil {
			return err
		}
	}
	return nil
}

func (a *applier) namespaceTopic(ns Namespace, t NamespaceTopic, nsPath string) error {
	path := nsPath + "/topics/" + url.PathEscape(t.Name)
	what := "topic " + quote(t.Name) + " of namespace " + quote(ns.Name)
	var body armNamespaceTopic
	body.Properties.EventRetentionInDays = t.EventRetentionInDays
	if err := a.put(t.Source, what, path, armHeader(t.Keys), mustJSON(body)); err != nil {
		return err
	}
	if err := a.checkKeys(t.Source, what, path, t.Keys); err != nil {
		return err
	}
	for _, s := range t.Subscriptions {
		var sub armNamespaceSubscription
		sub.Properties.DeliveryConfiguration = s.DeliveryConfiguration
		sub.Properties.EventDeliverySchema = s.EventDeliverySchema
		sub.Properties.FiltersConfiguration = s.FiltersConfiguration
		subWhat := "event subscription " + quote(s.Name) + " of " + what
		header := http.Header{"Content-Type": {"application/json"}}
		if s.SkipValidation {
			header.Set(headerSkipValidation, "true")
		}
		if err := a.put(s.Source, subWhat, path+"/eventSubscriptions/"+url.PathEscape(s.Name), header, mustJSON(sub)); err != nil {
			return err
		}
	}
	return nil
}
